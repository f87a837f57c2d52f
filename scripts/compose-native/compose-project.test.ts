import path from 'node:path';
import { projectRoot } from '../../lib/paths';
import { readComposeProject } from './compose-project';
import { enabledServices } from './compose-profiles';
import { withProjectImages } from './native-images';
import { placeServices } from './native-placement';

const ROOT = projectRoot();
const file = (name: string) => path.join(ROOT, name);
const secrets = {
  POSTGRES_PASSWORD: 'pg-secret',
  MCP_DB_PASSWORD: 'mcp-secret',
  REQUEST_STATE_KEYS: 'k1:AAAA',
  PAYLOAD_CODEC_KEYS: 'c1:BBBB',
  EVIDENCE_SIGNING_KEYS: 'e1:CCCC',
};

describe('readComposeProject on docker-compose.yml', () => {
  const project = readComposeProject([file('docker-compose.yml')], { ...secrets, HANDLER_SET: 'conformance' });

  it('interpolates from the given variables, defaults where unset', () => {
    const worker = project.services.worker!;
    expect(worker.environment.HANDLER_SET).toBe('conformance');
    expect(worker.environment.DATABASE_URL).toBe('postgres://mcp:mcp-secret@postgresql:5432/mcp');
    expect(worker.environment.MAX_ROUNDS).toBe('8');
    expect(project.services.temporal!.image).toBe('temporalio/server:1.32.0');
  });

  it('leaves out a service of a profile, as `docker compose up` does without --profile', () => {
    expect(project.services['upstream-example']).toBeUndefined();
    expect(project.services.api).toBeDefined();
  });

  it('drops the dependency on it that is not required, as compose does without the profile', () => {
    expect(project.services.api!.dependsOn).toEqual({
      postgresql: 'service_healthy',
      'temporal-create-namespace': 'service_completed_successfully',
    });
  });

  it('runs it with its profile, api and worker waiting until it is healthy', () => {
    const profiled = readComposeProject([file('docker-compose.yml')], secrets, { profiles: ['upstream-example'] });
    const example = profiled.services['upstream-example']!;
    expect(example.command).toEqual(['node', '/app/upstream-shop/server.mjs']);
    expect(example.healthcheck?.command.join(' ')).toContain('http://127.0.0.1:8000/healthz');
    for (const name of ['api', 'worker'])
      expect(profiled.services[name]!.dependsOn['upstream-example']).toBe('service_healthy');
    // Another profile, or none, leaves it out.
    const other = readComposeProject([file('docker-compose.yml')], secrets, { profiles: ['debug'] });
    expect(other.services['upstream-example']).toBeUndefined();
    const every = readComposeProject([file('docker-compose.yml')], secrets, { profiles: ['*'] });
    expect(every.services['upstream-example']).toBeDefined();
  });

  it('refuses to read without a secret compose requires', () => {
    expect(() => readComposeProject([file('docker-compose.yml')], { ...secrets, POSTGRES_PASSWORD: '' })).toThrow(
      /POSTGRES_PASSWORD: set POSTGRES_PASSWORD in .env/,
    );
  });

  it('resolves merge keys, dependencies, jobs, mounts and health checks', () => {
    const temporal = project.services.temporal!;
    expect(temporal.environment.POSTGRES_SEEDS).toBe('postgresql');
    expect(temporal.dependsOn).toEqual({ 'temporal-admin-tools': 'service_completed_successfully' });
    expect(temporal.job).toBe(false);
    expect(project.services['temporal-admin-tools']!.job).toBe(true);
    expect(temporal.mounts).toEqual([
      {
        source: file('deploy/temporal/dynamicconfig'),
        target: '/etc/temporal/config/dynamicconfig',
        readOnly: true,
      },
    ]);
    expect(project.services.postgresql!.healthcheck).toMatchObject({
      command: ['sh', '-c', 'pg_isready -h 127.0.0.1 -p 5432 -U "${POSTGRES_USER}" -d postgres'],
      intervalMs: 5_000,
      retries: 60,
    });
    // A named volume is no host path.
    expect(project.services.postgresql!.mounts.map((m) => m.target)).toEqual(['/docker-entrypoint-initdb.d']);
  });

  it('merges an override file: environment by key, volumes by target', () => {
    const merged = readComposeProject([file('docker-compose.yml'), file('deploy/compose.temporal-mtls.yml')], {
      ...secrets,
      TEMPORAL_TLS_DIR: '/certs',
    });
    const api = merged.services.api!;
    expect(api.environment.TEMPORAL_TLS_CLIENT_CERT_PATH).toBe('/tls/client.pem');
    expect(api.environment.AUTH_MODE).toBe('off');
    expect(api.mounts).toEqual(
      ['ca.pem', 'client.pem', 'client.key'].map((file) => ({
        source: `/certs/${file}`,
        target: `/tls/${file}`,
        readOnly: true,
      })),
    );
    expect(merged.services.temporal!.environment.TEMPORAL_TLS_REQUIRE_CLIENT_AUTH).toBe('true');
    expect(merged.services.temporal!.mounts.map((m) => m.target).sort()).toEqual([
      '/etc/temporal/config/dynamicconfig',
      '/tls/ca.pem',
      '/tls/server.key',
      '/tls/server.pem',
    ]);
  });
});

describe('placeServices', () => {
  const project = readComposeProject([file('docker-compose.yml'), file('deploy/compose.temporal-mtls.yml')], {
    ...secrets,
    TEMPORAL_TLS_DIR: '/certs',
  });
  const placed = placeServices(project, '127.0.83');
  const address = (name: string) => placed[name]!.address;

  it('gives each service its own loopback address', () => {
    const all = Object.values(placed).map((s) => s.address);
    expect(new Set(all).size).toBe(all.length);
    expect(all.every((a) => a.startsWith('127.0.83.'))).toBe(true);
  });

  it('turns service names used as hosts into their addresses, and nothing else', () => {
    const api = placed.api!.environment;
    expect(api.TEMPORAL_ADDRESS).toBe(`${address('temporal')}:7233`);
    expect(api.DATABASE_URL).toBe(`postgres://mcp:mcp-secret@${address('postgresql')}:5432/mcp`);
    const temporal = placed.temporal!.environment;
    expect(temporal.POSTGRES_SEEDS).toBe(address('postgresql'));
    // The user and database named "temporal" are not the service.
    expect(temporal.POSTGRES_USER).toBe('temporal');
    expect(temporal.DBNAME).toBe('temporal');
    expect(temporal.TEMPORAL_TLS_FRONTEND_SERVER_NAME).toBe('temporal');
  });

  it('binds what listens on all interfaces to the service alone', () => {
    expect(placed.temporal!.environment.BIND_ON_IP).toBe(address('temporal'));
    expect(placed.api!.environment.HOST).toBe(address('api'));
    expect(placed.worker!.environment.WORKER_METRICS_HOST).toBe(address('worker'));
    expect(placed.temporal!.healthcheck!.command).toEqual(['nc', '-z', address('temporal'), '7233']);
  });

  it('turns paths inside mounts into host paths', () => {
    expect(placed.api!.environment.TEMPORAL_TLS_SERVER_CA_CERT_PATH).toBe('/certs/ca.pem');
    expect(placed['temporal-admin-tools']!.entrypoint).toEqual([
      '/bin/sh',
      file('deploy/temporal/scripts/setup-postgres.sh'),
    ]);
  });
});

describe('enabledServices', () => {
  const services = {
    app: { depends_on: { db: { condition: 'service_healthy' }, tracing: { required: false } } },
    db: {},
    tracing: { profiles: ['debug'] },
    seed: { profiles: ['seed'], depends_on: ['db'] },
  };

  it('keeps a dependency not required only while its service runs', () => {
    expect(enabledServices(services, [])).toEqual({
      app: { depends_on: { db: { condition: 'service_healthy' } } },
      db: {},
    });
    expect(Object.keys(enabledServices(services, ['debug']).app!.depends_on as object)).toEqual(['db', 'tracing']);
    expect(Object.keys(enabledServices(services, ['seed']))).toEqual(['app', 'db', 'seed']);
  });

  it('refuses a required dependency on a service left out, as compose does', () => {
    expect(() => enabledServices({ ...services, app: { depends_on: ['tracing'] } }, [])).toThrow(
      'service tracing is required by app but is disabled. Can be enabled by profiles [debug]',
    );
    expect(() => enabledServices({ ...services, app: { depends_on: { tracing: {} } } }, [])).toThrow(
      /service tracing is required by app/,
    );
  });
});

describe('withProjectImages', () => {
  it("runs a service's image that another service builds as that build", () => {
    const profiled = readComposeProject([file('docker-compose.yml')], secrets, { profiles: ['upstream-example'] });
    const services = withProjectImages(profiled.services);
    expect(services['upstream-example']!.build).toEqual(services.api!.build);
    expect(services.temporal!.build).toBeUndefined();
  });
});
