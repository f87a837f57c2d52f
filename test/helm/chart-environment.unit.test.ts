/**
 * The environment the chart's pods start with, resolved as a kubelet resolves it (the ConfigMap,
 * the Secrets, `$(VAR)` in the command, and pinned, the Worker Controller's additions:
 * scripts/helm/rendered-processes.ts), parsed by the service's own configuration for each role:
 * for every documented combination the API and the worker would start with it, and would not
 * without a required secret. Certificates for the TLS combinations come from
 * deploy/temporal/tls/make-dev-certs.sh, standing in for the mounted Secrets. Needs helm and
 * openssl: skipped without helm outside CI.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkApiExposure, evidenceKeysOf, parseConfig } from '../../lib/config';
import { projectRoot } from '../../lib/paths';
import { CONTROLLER_TLS_VOLUME } from '../../scripts/helm/chart-objects';
import { afterEnv, renderedProcesses, type RenderedProcess } from '../../scripts/helm/rendered-processes';
import { describeWith, tools } from './chart-tools';
import { COMBINATIONS, NAMESPACE, render, valuesArgs, type Combination } from './render';

const combinations = Object.keys(COMBINATIONS) as Combination[];
const ring = (kid: string) => `${kid}:${randomBytes(32).toString('base64')}`;
/** The Secrets ci/*.yaml name, as an operator would have made them. */
const SECRETS = {
  'durable-mcp-database': { url: 'postgres://mcp:secret@postgres.db.svc:5432/mcp' },
  'durable-mcp-keys': {
    REQUEST_STATE_KEYS: ring('k1'),
    PAYLOAD_CODEC_KEYS: ring('p1'),
    EVIDENCE_SIGNING_KEYS: ring('ev1'),
  },
  'durable-mcp-temporal-cloud': { 'api-key': 'a-temporal-cloud-api-key' },
  'durable-mcp-webhooks': { WEBHOOK_SECRETS: `whsec_${randomBytes(32).toString('base64')}` },
  'durable-mcp-admin': { ADMIN_TOKEN: randomBytes(32).toString('hex') },
};

let certs: string;
beforeAll(() => {
  const made = mkdtempSync(path.join(tmpdir(), 'chart-certs-'));
  execFileSync(
    'sh',
    [path.join(projectRoot(), 'deploy/temporal/tls/make-dev-certs.sh'), made, 'temporal-frontend.temporal.svc'],
    {
      stdio: 'ignore',
    },
  );
  // The layout of a kubernetes.io/tls Secret with its CA, as cert-manager writes it.
  certs = path.join(made, 'secret');
  execFileSync('mkdir', [certs]);
  copyFileSync(path.join(made, 'client.pem'), path.join(certs, 'tls.crt'));
  copyFileSync(path.join(made, 'client.key'), path.join(certs, 'tls.key'));
  copyFileSync(path.join(made, 'ca.pem'), path.join(certs, 'ca.crt'));
});
afterAll(() => rmSync(path.dirname(certs), { recursive: true, force: true }));

const processes = (combination: Combination, secrets: object = SECRETS) =>
  renderedProcesses(render(valuesArgs(combination)), {
    secrets: secrets as Record<string, Record<string, string>>,
    volumes: { 'durable-mcp-temporal-tls': certs, [CONTROLLER_TLS_VOLUME]: certs },
    buildId: 'durable-mcp-0-1-0-7f3a9c',
  });
const one = (all: RenderedProcess[], owner: string) => {
  const found = all.filter((p) => p.owner === owner);
  expect(found.map((p) => p.owner)).toEqual([owner]);
  return afterEnv(found[0]!);
};

describeWith(['helm'])('the chart: the environment its pods start with', () => {
  it.each(combinations)('is one the API and the worker start with (%s)', (combination) => {
    const all = processes(combination);
    const api = one(all, 'Deployment/mcp-durable-mcp-api');
    expect(api.argv).toEqual(['node', 'dist/cli/start/api-main.js']);
    const apiConfig = parseConfig(api.env, 'api');
    checkApiExposure(apiConfig);
    expect(evidenceKeysOf(apiConfig).length).toBe(1);
    const pinned = combination === 'worker-controller';
    const worker = one(all, `${pinned ? 'WorkerDeployment' : 'Deployment'}/mcp-durable-mcp-worker`);
    expect(worker.argv).toEqual(['node', 'dist/cli/start/worker-main.js']);
    const workerConfig = parseConfig(worker.env, 'worker');
    expect(workerConfig.temporal.address).toBe(apiConfig.temporal.address);
    expect(workerConfig.temporal.security.tls !== undefined).toBe(apiConfig.temporal.security.tls !== undefined);
    if (pinned)
      // The versions the controller names are the ones the worker runs as, and the API watches.
      expect([workerConfig.temporal.versioning, apiConfig.temporal.versioning?.deploymentName]).toEqual([
        { deploymentName: `${NAMESPACE}/mcp-durable-mcp-worker`, buildId: 'durable-mcp-0-1-0-7f3a9c', promote: 'off' },
        `${NAMESPACE}/mcp-durable-mcp-worker`,
      ]);
    else expect(workerConfig.temporal.versioning).toBeUndefined();
  });

  it('lets clients reach the API by its Service names and its Ingress and HTTPRoute hosts, besides config’s', () => {
    const objects = render([...valuesArgs('ingress'), '--set', 'config.ALLOWED_HOSTS=mcp.internal.example']);
    const api = one(renderedProcesses(objects, { secrets: SECRETS }), 'Deployment/mcp-durable-mcp-api');
    const service = `mcp-durable-mcp-api`;
    expect(parseConfig(api.env, 'api').http.allowedHosts).toEqual([
      'mcp.internal.example',
      service,
      `${service}.${NAMESPACE}`,
      `${service}.${NAMESPACE}.svc`,
      `${service}.${NAMESPACE}.svc.cluster.local`,
      'mcp.example.com',
    ]);
  });

  it('gives the TLS settings files that parse, and the API key where the Temporal Cloud combination says', () => {
    const mtls = parseConfig(one(processes('mtls'), 'Deployment/mcp-durable-mcp-worker').env, 'worker');
    expect(mtls.temporal.security.tls?.clientCert?.certPath).toBe(path.join(certs, 'tls.crt'));
    expect(mtls.temporal.security.tls?.serverRootCa?.path).toBe(path.join(certs, 'ca.crt'));
    expect(mtls.temporal.security.tls?.serverName).toBe('temporal-frontend.temporal.svc');
    const cloud = parseConfig(one(processes('api-key'), 'Deployment/mcp-durable-mcp-api').env, 'api');
    expect(cloud.temporal.security.apiKey).toBe('a-temporal-cloud-api-key');
  });

  it('runs the migration Job with the database URL alone, and the namespace Job with the CLI’s Temporal settings', () => {
    const all = processes('mtls');
    const migrate = one(all, 'Job/mcp-durable-mcp-migrations');
    expect(migrate.argv).toEqual(['node', 'dist/scripts/migrate.js']);
    expect(Object.keys(migrate.env).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL']);
    const setup = one(all, 'Job/mcp-durable-mcp-temporal-setup');
    expect(setup.argv).toEqual(['/bin/sh', '/scripts/create-namespace.sh']);
    expect(setup.env.TEMPORAL_TLS_CLIENT_CERT_PATH).toBe(path.join(certs, 'tls.crt'));
    // A path on the command line inside a mount moves with it too: the script of the ConfigMap volume.
    const moved = renderedProcesses(render(valuesArgs('mtls')), {
      secrets: SECRETS,
      volumes: { scripts: '/srv/setup-scripts', tmp: '/srv/pod-tmp' },
    }).find((p) => p.owner === 'Job/mcp-durable-mcp-temporal-setup')!;
    expect([moved.argv, moved.env.HOME]).toEqual([
      ['/bin/sh', '/srv/setup-scripts/create-namespace.sh'],
      '/srv/pod-tmp',
    ]);
  });

  it('would not start without a required secret: the environment check has teeth', () => {
    const keys: Record<string, string> = { ...SECRETS['durable-mcp-keys'], PAYLOAD_CODEC_KEYS: 'p1:short' };
    const api = one(processes('default', { ...SECRETS, 'durable-mcp-keys': keys }), 'Deployment/mcp-durable-mcp-api');
    expect(() => parseConfig(api.env, 'api')).toThrow(/PAYLOAD_CODEC_KEYS/);
    expect(() => processes('default', {})).toThrow(/no value for Secret durable-mcp-database key url/);
  });

  it('is what `npm run helm:processes` prints, for a native run of the rendered containers', () => {
    const secretsFile = path.join(path.dirname(certs), 'secrets.json');
    writeFileSync(secretsFile, JSON.stringify(SECRETS));
    const printed = JSON.parse(
      execFileSync(
        process.execPath,
        ['--import', 'tsx', 'scripts/helm-processes.ts', '--secrets', secretsFile, ...valuesArgs('default')],
        { cwd: projectRoot(), encoding: 'utf8', env: { ...process.env, HELM_PATH: tools.helm } },
      ),
    ) as RenderedProcess[];
    expect(printed.map((p) => p.owner).sort()).toEqual([
      'Deployment/durable-mcp-api',
      'Deployment/durable-mcp-worker',
      'Job/durable-mcp-migrations',
      'Job/durable-mcp-temporal-setup',
    ]);
    const worker = afterEnv(printed.find((p) => p.owner === 'Deployment/durable-mcp-worker')!);
    expect(parseConfig(worker.env, 'worker').database.url).toBe(SECRETS['durable-mcp-database'].url);
  });
});
