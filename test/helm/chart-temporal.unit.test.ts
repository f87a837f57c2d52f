/**
 * The Helm chart's Temporal side as `helm template` renders it: the Worker Controller's
 * WorkerDeployment and Connection (worker.versioning=pinned), Temporal TLS and API keys, and the
 * hook Jobs (migrations, then the namespace and search attributes, before install and upgrade).
 * Needs the helm binary (chart-tools.ts): skipped without it outside CI.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SEARCH_ATTRIBUTE_FLAGS } from '../../lib/exchange/search-attributes';
import { projectRoot } from '../../lib/paths';
import { CONTROLLER_TLS_DIR, CONTROLLER_TLS_VOLUME } from '../../scripts/helm/chart-objects';
import { describeWith } from './chart-tools';
import { CHART, NAMESPACE, find, render, renderWith, valuesArgs, type K8sObject } from './render';
import { containerOf, podOf, secretNames } from './pods';

const ROOT = projectRoot();
const rendered = (combination: Parameters<typeof valuesArgs>[0]) => render(valuesArgs(combination));
const configOf = (objects: K8sObject[]) => find(objects, 'ConfigMap', '').data as Record<string, string>;

const hook = (o: K8sObject) => o.metadata.annotations?.['helm.sh/hook'] ?? '';
const weight = (o: K8sObject) => Number(o.metadata.annotations?.['helm.sh/hook-weight'] ?? 0);

describeWith(['helm'])('the chart: versioning, Temporal, jobs', () => {
  it('hands the worker to the Temporal Worker Controller when pinned, and its names to the worker', () => {
    const objects = rendered('worker-controller');
    expect(objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name)).toEqual(['mcp-durable-mcp-api']);
    const wd = find(objects, 'WorkerDeployment', 'worker');
    const connection = find(objects, 'Connection', 'worker');
    expect([wd.apiVersion, connection.apiVersion]).toEqual(['temporal.io/v1alpha1', 'temporal.io/v1alpha1']);
    expect(wd.spec).toEqual(
      expect.objectContaining({
        workerOptions: { connectionRef: { name: connection.metadata.name }, temporalNamespace: 'default' },
        rollout: expect.objectContaining({ strategy: 'Progressive' }),
        sunset: { scaledownDelay: '1h', deleteDelay: '24h' },
      }),
    );
    expect(connection.spec).toEqual({
      hostPort: 'temporal-frontend.temporal.svc:7233',
      mutualTLSSecretRef: { name: 'durable-mcp-temporal-client' },
    });
    // The controller names the deployment <namespace>/<resource> and each version's build id; the
    // worker reads them under its own names, and leaves promotion to the controller.
    const worker = containerOf(podOf(wd));
    expect(worker.command).toEqual([
      'env',
      'WORKER_DEPLOYMENT_NAME=$(TEMPORAL_DEPLOYMENT_NAME)',
      'WORKER_BUILD_ID=$(TEMPORAL_WORKER_BUILD_ID)',
      'node',
      'dist/cli/start/worker-main.js',
    ]);
    expect(configOf(objects)).toEqual(
      expect.objectContaining({
        WORKER_VERSIONING: 'pinned',
        WORKER_DEPLOYMENT_NAME: `${NAMESPACE}/${wd.metadata.name}`,
        WORKER_PROMOTE: 'off',
      }),
    );
    // The controller adds a volume and a mount of its own to each version's pods: the template leaves their names free.
    expect(podOf(wd).spec.volumes?.map((v) => v.name)).not.toContain(CONTROLLER_TLS_VOLUME);
    expect(worker.volumeMounts?.map((m) => m.mountPath)).not.toContain(CONTROLLER_TLS_DIR);
    // Its pods are the worker's: the metrics Service and the PDB select them.
    const labels = podOf(wd).metadata.labels;
    for (const [kind, name] of [
      ['Service', 'worker-metrics'],
      ['PodDisruptionBudget', 'worker'],
    ] as const) {
      const selector = find(objects, kind, name).spec as {
        selector: Record<string, string> | { matchLabels: Record<string, string> };
      };
      const wanted = 'matchLabels' in selector.selector ? selector.selector.matchLabels : selector.selector;
      expect(labels).toEqual(expect.objectContaining(wanted));
    }
  });

  it('gives the Connection the API key (and the worker no second copy of it) when pinned with one', () => {
    const objects = renderWith('api-key', { worker: { versioning: 'pinned' } });
    expect(find(objects, 'Connection', 'worker').spec).toEqual({
      hostPort: 'us-east-1.aws.api.temporal.io:7233',
      apiKeySecretRef: { name: 'durable-mcp-temporal-cloud', key: 'api-key' },
    });
    expect(secretNames(containerOf(podOf(find(objects, 'WorkerDeployment', 'worker'))))).not.toContain(
      'TEMPORAL_API_KEY',
    );
  });

  it('mounts the Temporal TLS Secret read-only where the TLS settings point, in every pod that talks to Temporal', () => {
    const objects = rendered('mtls');
    const config = configOf(objects);
    expect(config).toEqual(
      expect.objectContaining({
        TEMPORAL_TLS: 'true',
        TEMPORAL_TLS_SERVER_NAME: 'temporal-frontend.temporal.svc',
        TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/etc/durable-mcp/temporal-tls/ca.crt',
        TEMPORAL_TLS_CLIENT_CERT_PATH: '/etc/durable-mcp/temporal-tls/tls.crt',
        TEMPORAL_TLS_CLIENT_KEY_PATH: '/etc/durable-mcp/temporal-tls/tls.key',
      }),
    );
    for (const [kind, name] of [
      ['Deployment', 'api'],
      ['Deployment', 'worker'],
      ['Job', 'temporal-setup'],
    ] as const) {
      const pod = podOf(find(objects, kind, name));
      expect(pod.spec.volumes).toContainEqual({
        name: 'durable-mcp-temporal-tls',
        secret: { secretName: 'durable-mcp-temporal-client', defaultMode: 0o440 },
      });
      expect(containerOf(pod).volumeMounts).toContainEqual({
        name: 'durable-mcp-temporal-tls',
        mountPath: '/etc/durable-mcp/temporal-tls',
        readOnly: true,
      });
    }
    // The namespace Job's temporal CLI reads the same settings.
    const setupEnv = containerOf(podOf(find(objects, 'Job', 'temporal-setup'))).env ?? [];
    expect(setupEnv).toContainEqual({
      name: 'TEMPORAL_TLS_CLIENT_KEY_PATH',
      value: config.TEMPORAL_TLS_CLIENT_KEY_PATH,
    });
    // The migration Job talks to Postgres alone.
    expect(podOf(find(objects, 'Job', 'migrations')).spec.volumes?.map((v) => v.name)).toEqual(['tmp']);
  });

  it('sends the Temporal Cloud API key from its Secret to both processes, and runs no namespace Job', () => {
    const objects = rendered('api-key');
    const ref = { secretKeyRef: { name: 'durable-mcp-temporal-cloud', key: 'api-key' } };
    for (const name of ['api', 'worker'])
      expect(containerOf(podOf(find(objects, 'Deployment', name))).env).toContainEqual({
        name: 'TEMPORAL_API_KEY',
        valueFrom: ref,
      });
    expect(configOf(objects).TEMPORAL_TLS).toBe('true');
    expect(objects.filter((o) => o.metadata.name.endsWith('temporal-setup'))).toEqual([]);
  });

  it('makes what the migration Job needs before it, since it runs before the release’s own objects exist', () => {
    const objects = renderWith('default', {
      secrets: { DATABASE_URL: { existingSecret: '', value: 'postgres://mcp:secret@postgres:5432/mcp' } },
    });
    const migrations = find(objects, 'Job', 'migrations');
    const pod = podOf(migrations);
    const needs = [
      find(objects, 'ServiceAccount', ''),
      ...(pod.spec.volumes ?? []).flatMap((v) => (v.configMap ? [find(objects, 'ConfigMap', v.configMap.name)] : [])),
      ...[...new Set((containerOf(pod).env ?? []).flatMap((e) => e.valueFrom?.secretKeyRef?.name ?? []))].flatMap(
        (name) => objects.filter((o) => o.kind === 'Secret' && o.metadata.name === name),
      ),
    ];
    expect((podOf(migrations).spec as { serviceAccountName?: string }).serviceAccountName).toBe(
      needs[0]!.metadata.name,
    );
    expect(needs.map((o) => o.kind)).toEqual(['ServiceAccount', 'Secret']);
    for (const needed of needs) {
      expect({ [needed.kind]: hook(needed) }).toEqual({ [needed.kind]: 'pre-install,pre-upgrade' });
      expect(weight(needed)).toBeLessThan(weight(migrations));
    }
  });

  it('migrates, then sets up Temporal, before install and upgrade, so pods start on both as docker compose starts them', () => {
    const objects = rendered('default');
    const migrations = find(objects, 'Job', 'migrations');
    expect(migrations.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const migrate = containerOf(podOf(migrations));
    expect(migrate.command).toEqual(['node', 'dist/scripts/migrate.js']);
    // The image holds dist/ as `tsc -p tsconfig.json` builds it, scripts/ included.
    expect(existsSync(path.join(ROOT, 'scripts/migrate.ts'))).toBe(true);
    expect(
      (JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as { include: string[] }).include,
    ).toContain('scripts/**/*.ts');
    expect(secretNames(migrate)).toEqual(['DATABASE_URL']);
    const setup = find(objects, 'Job', 'temporal-setup');
    // Before the pods too: a worker refuses to start on a namespace that lacks an attribute, and
    // `helm install --wait` runs post-install hooks only once the pods are ready.
    expect(hook(setup)).toBe('pre-install,pre-upgrade');
    expect(weight(setup)).toBeGreaterThan(weight(migrations));
    // What it needs, a hook made before it: its script's ConfigMap and the pods' ServiceAccount.
    for (const needed of [find(objects, 'ConfigMap', 'temporal-setup'), find(objects, 'ServiceAccount', '')]) {
      expect({ [needed.kind]: hook(needed) }).toEqual({ [needed.kind]: 'pre-install,pre-upgrade' });
      expect(weight(needed)).toBeLessThan(weight(setup));
    }
    const env = Object.fromEntries((containerOf(podOf(setup)).env ?? []).map((e) => [e.name, e.value]));
    expect(env.SEARCH_ATTRIBUTES?.split(' ')).toEqual(SEARCH_ATTRIBUTE_FLAGS);
    expect(env).toEqual(
      expect.objectContaining({ NAMESPACE: 'default', TEMPORAL_ADDRESS: 'temporal-frontend.temporal.svc:7233' }),
    );
    const script = find(objects, 'ConfigMap', 'temporal-setup').data as Record<string, string>;
    const composeScript = readFileSync(path.join(ROOT, 'deploy/temporal/scripts/create-namespace.sh'), 'utf8');
    expect(readFileSync(path.join(CHART, 'files/create-namespace.sh'), 'utf8')).toBe(composeScript);
    expect(script['create-namespace.sh']).toBe(composeScript);
  });

  it("pulls each image by digest when one is set, the namespace Job's too", () => {
    const digest = `sha256:${'ab'.repeat(32)}`;
    const images = (objects: K8sObject[]) =>
      ['api', 'worker', 'migrations', 'temporal-setup'].map((component) => {
        const kind = component === 'api' || component === 'worker' ? 'Deployment' : 'Job';
        return containerOf(podOf(find(objects, kind, component))).image;
      });
    expect(images(rendered('default'))).toEqual([
      expect.stringMatching(/:[^@]+$/),
      expect.stringMatching(/:[^@]+$/),
      expect.stringMatching(/:[^@]+$/),
      'temporalio/admin-tools:1.32.0',
    ]);
    const pinned = renderWith('default', { image: { digest }, temporal: { setup: { image: { digest } } } });
    expect(images(pinned).map((image) => image?.split('@')[1])).toEqual([digest, digest, digest, digest]);
  });
});
