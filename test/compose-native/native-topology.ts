/**
 * The production topology for the tests of test/compose-native: docker-compose.yml run as OS
 * processes (scripts/compose-native), with the variables an operator's .env would hold (fresh
 * secrets, the conformance handler set, the unauthenticated API allowed since it is on loopback)
 * and any override files, on a data folder of its own, the API and worker from a fresh `dist/`;
 * or, `only`, some of its services (and what they depend on); with `profiles`, those of the named
 * profiles too.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNativeTopology, type NativeTopology } from '../../scripts/compose-native/compose-native';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { projectRoot } from '../../lib/paths';

const ROOT = projectRoot();
const ring = (kid: string) => `${kid}:${randomBytes(32).toString('base64')}`;

export interface TestTopology {
  topology: NativeTopology;
  /** The API's MCP endpoint. */
  url: string;
  temporalAddress: string;
  /** The service's own database, as the API reaches it. */
  databaseUrl: string;
  variables: Record<string, string>;
  dataDir: string;
  close(): Promise<void>;
}

export function buildDist(): void {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed: ${build.stdout}${build.stderr}`);
}

export async function startTestTopology(
  options: {
    overrides?: string[];
    variables?: Record<string, string>;
    only?: string[];
    /** As `docker compose --profile NAME up`. */
    profiles?: string[];
    log?: (line: string) => void;
  } = {},
): Promise<TestTopology> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-native-'));
  chmodSync(dataDir, 0o755); // as root, Postgres runs as the postgres user, which must reach its folder
  const variables: Record<string, string> = {
    POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
    MCP_DB_PASSWORD: randomBytes(12).toString('hex'),
    REQUEST_STATE_KEYS: ring('native'),
    PAYLOAD_CODEC_KEYS: ring('nativecodec'),
    EVIDENCE_SIGNING_KEYS: ring('nativeevidence'),
    ALLOW_UNAUTHENTICATED: 'true',
    HANDLER_SET: 'conformance',
    LOG_LEVEL: 'info',
    // The scenarios start many exchanges of one call: each is its own (test/README.md).
    REATTACH_IDENTICAL_CALLS_MS: '0',
    // Where compose publishes them on 127.0.0.1: free ports, beside whatever else runs here.
    API_PORT: String(await freePort()),
    TEMPORAL_PORT: String(await freePort()),
    WORKER_METRICS_PORT: String(await freePort()),
    ...options.variables,
  };
  const topology = await startNativeTopology({
    files: [path.join(ROOT, 'docker-compose.yml'), ...(options.overrides ?? []).map((f) => path.join(ROOT, f))],
    variables,
    dataDir,
    ...(options.only ? { only: options.only } : {}),
    ...(options.profiles ? { profiles: options.profiles } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const api = topology.services.api!;
  return {
    topology,
    // As an operator's clients reach it: the published port.
    url: `http://${topology.published('api', Number(api.environment.PORT))}/mcp`,
    temporalAddress: api.environment.TEMPORAL_ADDRESS!,
    databaseUrl: api.environment.DATABASE_URL!,
    variables,
    dataDir,
    async close() {
      await topology.stopAll();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
