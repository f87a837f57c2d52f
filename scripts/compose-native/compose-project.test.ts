import path from 'node:path';
import { projectRoot } from '../../lib/paths';
import { readComposeProject } from './compose-project';
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
