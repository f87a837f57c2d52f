/**
 * The Helm chart's API and worker as `helm template` renders them (deploy/helm/durable-mcp, each
 * documented combination of values): the same processes the image and docker-compose.yml run,
 * each given only the secrets lib/config says it reads, probed on the API's own health routes,
 * given the time its drain takes, locked down (non-root, read-only root filesystem, no privilege
 * escalation, no capabilities, no service account token), with the bench's resources. Needs the
 * helm binary (chart-tools.ts): skipped without it outside CI.
 */
import { API_ONLY_SECRETS, CONFIG_VARIABLES, WORKER_ONLY_SECRETS, defaultValueOf, secretsOf } from '../../lib/config';
import { healthRouter } from '../../services/api/src/routes/health';
import { createLogger } from '../../lib/log';
import { CHART_SECRETS, CHART_SETS } from '../../scripts/helm/chart-variables';
import { describeWith } from './chart-tools';
import { COMBINATIONS, find, render, renderError, renderWith, valuesArgs, type Combination } from './render';
import { containerOf, podOf, podTemplates, secretNames } from './pods';

const combinations = Object.keys(COMBINATIONS) as Combination[];
const rendered = (combination: Combination) => render(valuesArgs(combination));
/** Every secret given (one by value, the rest from a Secret of one's own), so each pod gets every secret it may read. */
const allSecrets = {
  ...Object.fromEntries(CHART_SECRETS.map((name) => [name, { existingSecret: 'durable-mcp-secrets' }])),
  METRICS_TOKEN: { value: 'a-metrics-token-of-forty-characters-0123' },
};

describeWith(['helm'])('the chart: API and worker processes', () => {
  it.each(combinations)('locks down every pod and container (%s)', (combination) => {
    for (const { owner, pod } of podTemplates(rendered(combination))) {
      const where = `${owner.kind} ${owner.metadata.name}`;
      expect({ where, pod: pod.spec.securityContext }).toEqual({
        where,
        pod: expect.objectContaining({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }),
      });
      expect({ where, token: pod.spec.automountServiceAccountToken }).toEqual({ where, token: false });
      for (const container of pod.spec.containers) {
        expect({ where, security: container.securityContext }).toEqual({
          where,
          security: expect.objectContaining({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            runAsNonRoot: true,
            capabilities: { drop: ['ALL'] },
          }),
        });
        expect({ where, resources: Object.keys(container.resources ?? {}).sort() }).toEqual({
          where,
          resources: ['limits', 'requests'],
        });
      }
    }
  });

  it("runs each process as the image does, and probes the API's own health routes", () => {
    const objects = rendered('default');
    const api = containerOf(podOf(find(objects, 'Deployment', 'api')));
    const worker = containerOf(podOf(find(objects, 'Deployment', 'worker')));
    expect(api.command).toEqual(['node', 'dist/cli/start/api-main.js']);
    expect(worker.command).toEqual(['node', 'dist/cli/start/worker-main.js']);
    const routes = healthRouter({ checks: [], checkTimeoutMs: 1, log: createLogger('test', 'silent') }).stack.map(
      (layer) => layer.route?.path,
    );
    const pathOf = (probe: unknown) => (probe as { httpGet: { path: string; port: string } }).httpGet;
    expect(pathOf(api.startupProbe)).toEqual({ path: '/healthz', port: 'http' });
    expect(pathOf(api.livenessProbe)).toEqual({ path: '/healthz', port: 'http' });
    expect(pathOf(api.readinessProbe)).toEqual({ path: '/readyz', port: 'http' });
    expect(routes).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
    expect([api.image, worker.image]).toEqual(['durable-mcp:0.1.0', 'durable-mcp:0.1.0']);
    // A worker can take a new version first (a pinned rollout without skew); a digest pins one.
    const early = renderWith('default', {
      worker: { image: { tag: '0.2.0' } },
      image: { repository: 'registry.example/mcp' },
    });
    expect(
      ['Deployment', 'Deployment', 'Job'].map(
        (kind, i) => containerOf(podOf(find(early, kind, ['api', 'worker', 'migrations'][i]!))).image,
      ),
    ).toEqual(['registry.example/mcp:0.1.0', 'registry.example/mcp:0.2.0', 'registry.example/mcp:0.1.0']);
    const digest = `sha256:${'a'.repeat(64)}`;
    expect(
      containerOf(podOf(find(renderWith('default', { api: { image: { digest } } }), 'Deployment', 'api'))).image,
    ).toBe(`durable-mcp@${digest}`);
    // The worker serves no health route: its probes say its metrics listener accepts connections.
    expect(worker.livenessProbe).toEqual(expect.objectContaining({ tcpSocket: { port: 'metrics' } }));
    expect(worker.ports).toEqual([expect.objectContaining({ name: 'metrics', containerPort: 9464 })]);
  });

  it('gives each stop its grace: preStop, the drain (or the worker’s round grace) and 5 s, within terminationGracePeriodSeconds', () => {
    const objects = rendered('default');
    const api = podOf(find(objects, 'Deployment', 'api'));
    const worker = podOf(find(objects, 'Deployment', 'worker'));
    const preStop = containerOf(api).lifecycle?.preStop?.exec?.command;
    expect(preStop?.[0]).toBe('sleep');
    const drainS = defaultValueOf('API_DRAIN_GRACE_MS') / 1000;
    expect(Number(preStop?.[1]) + drainS + 5).toBeLessThanOrEqual(api.spec.terminationGracePeriodSeconds!);
    expect(defaultValueOf('WORKER_SHUTDOWN_GRACE_MS') / 1000 + 5).toBeLessThanOrEqual(
      worker.spec.terminationGracePeriodSeconds!,
    );
    // A longer drain than the period allows is refused, naming what is needed.
    expect(renderError([...valuesArgs('default'), '--set', 'config.API_DRAIN_GRACE_MS=25000'])).toMatch(
      /api\.terminationGracePeriodSeconds \(30\) must cover .* at least 35/,
    );
    expect(renderError([...valuesArgs('default'), '--set', 'worker.terminationGracePeriodSeconds=12'])).toMatch(
      /worker\.terminationGracePeriodSeconds \(12\) must cover .* at least 15/,
    );
  });

  it('gives the API and the worker exactly the secrets lib/config says each reads, when all are given', () => {
    const objects = renderWith('default', { secrets: allSecrets });
    const api = containerOf(podOf(find(objects, 'Deployment', 'api')));
    const worker = containerOf(podOf(find(objects, 'Deployment', 'worker')));
    expect(secretNames(api).sort()).toEqual([...secretsOf('api')].sort());
    expect(secretNames(worker).sort()).toEqual([...secretsOf('worker')].sort());
    expect(secretNames(worker).filter((n) => (API_ONLY_SECRETS as readonly string[]).includes(n))).toEqual([]);
    expect(secretNames(api).filter((n) => (WORKER_ONLY_SECRETS as readonly string[]).includes(n))).toEqual([]);
    // Given by value, they are in the chart's one Secret, made before the migration Job runs.
    const secret = find(objects, 'Secret', '').metadata;
    expect(secret.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const migrations = find(objects, 'Job', 'migrations').metadata.annotations!;
    expect(Number(secret.annotations?.['helm.sh/hook-weight'])).toBeLessThan(Number(migrations['helm.sh/hook-weight']));
  });

  it.each(combinations)('puts no secret in the ConfigMap, only variables the service reads (%s)', (combination) => {
    const objects = rendered(combination);
    const data = (find(objects, 'ConfigMap', '').data ?? {}) as Record<string, string>;
    const names = new Set(CONFIG_VARIABLES.map((v) => v.name));
    expect(Object.keys(data).filter((key) => !names.has(key))).toEqual([]);
    expect(Object.keys(data).filter((key) => CHART_SECRETS.includes(key))).toEqual([]);
    for (const { pod } of podTemplates(objects))
      for (const container of pod.spec.containers)
        for (const env of container.env ?? [])
          if (CHART_SECRETS.includes(env.name)) expect({ [env.name]: env.value }).toEqual({ [env.name]: undefined });
  });

  it('sets what the chart owns from its values, and config as the environment spells it', () => {
    const data = find(renderWith('ingress', { config: { SSE_MAX_BUFFERED_BYTES: 1048576 } }), 'ConfigMap', '')
      .data as Record<string, string>;
    expect(data).toEqual(
      expect.objectContaining({
        HOST: '0.0.0.0',
        PORT: '3000',
        WORKER_METRICS_HOST: '0.0.0.0',
        WORKER_METRICS_PORT: '9464',
        TEMPORAL_ADDRESS: 'temporal-frontend.temporal.svc:7233',
        TEMPORAL_NAMESPACE: 'default',
        WORKER_VERSIONING: 'off',
        // Helm reads YAML numbers as floats: whole numbers stay whole.
        MAX_QUESTION_WAIT_MS: '86400000',
        ROUND_TIMEOUT_MS: '600000',
        SSE_MAX_BUFFERED_BYTES: '1048576',
      }),
    );
    for (const name of Object.keys(CHART_SETS))
      expect(renderError([...valuesArgs('default'), '--set', `config.${name}=x`])).toMatch(/config/);
  });

  it('refuses to render without what nothing starts without, naming each', () => {
    const base = valuesArgs('default');
    expect(renderError(base)).toBeUndefined();
    expect(renderError([...base, '--set', 'config.AUTH_MODE=off'])).toMatch(/config\.AUTH_MODE is off/);
    expect(renderError([...base, '--set', 'config.AUTH_MODE=off', '--set', 'config.ALLOW_UNAUTHENTICATED=true'])).toBe(
      undefined,
    );
    expect(renderError([...base, '--set', 'temporal.address='])).toMatch(/temporal\.address is required/);
    for (const [name, pod] of [
      ['DATABASE_URL', 'api'],
      ['REQUEST_STATE_KEYS', 'api'],
      ['PAYLOAD_CODEC_KEYS', 'api'],
      ['EVIDENCE_SIGNING_KEYS', 'api'],
    ])
      expect(renderError([...base, '--set', `secrets.${name}.existingSecret=`])).toMatch(
        new RegExp(`secrets\\.${name} is required by the (${pod}|worker|migrations)`),
      );
  });
});
