/**
 * The production topology as local processes, for `npm run prod:local` and its test: a Temporal
 * server on a database file (the CLI's dev server, with its Web UI), Postgres in a process of its
 * own, and the built worker and API from dist/ as two processes, started in dependency order and
 * stopped in reverse (API first, so no leg is taken that no worker would serve). The same
 * processes docker-compose runs, without a Docker engine.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { API_ONLY_SECRETS, WORKER_ONLY_SECRETS } from '../lib/config/process-role';
import { projectRoot } from '../lib/paths';
import { killOnExit, spawnChild, type Child } from '../cli/dev/child-processes';
import { createTeardown } from '../cli/dev/teardown';
import { freePort } from '../cli/dev/local-stack/free-port';
import { startPostgresChild } from './postgres-child';
import { composeNodeOptions } from './compose-node-options';
import { startTemporalDevServer } from '../cli/dev/local-stack/temporal-dev-server';
import { waitForHealth, waitForPollers } from '../cli/dev/readiness';

/** `env` less the secrets only the other process uses, as docker-compose.yml gives them (lib/config/process-role.ts). */
function withoutSecretsOfTheOther(name: 'worker' | 'api', env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const theirs: readonly string[] = name === 'worker' ? API_ONLY_SECRETS : WORKER_ONLY_SECRETS;
  return Object.fromEntries(Object.entries(env).filter(([key]) => !theirs.includes(key)));
}

export interface ProdTopologyOptions {
  /** Temporal's database file, Postgres's data and every process's log. */
  dataDir: string;
  /** Keep Temporal history and Postgres data across runs (the command), or throw them away (a test). */
  persistent: boolean;
  apiPort?: number;
  temporalPort?: number;
  /** The Temporal Web UI's port; no UI when absent. */
  temporalUiPort?: number;
  /** Configuration of the API and worker processes (lib/config.ts), over what the stack sets. */
  env: Record<string, string>;
  onStart?(what: string): void;
}

export interface ProdTopology {
  apiUrl: string;
  temporalAddress: string;
  temporalUiUrl?: string;
  databaseUrl: string;
  taskQueue: string;
  processes: { api: Child; worker: Child };
  /** Why a process of the stack has exited, if one has. */
  exited(): string | undefined;
  stop(): Promise<void>;
}

const ROOT = projectRoot(__dirname);
const DIST_MAINS = { worker: 'dist/cli/start/worker-main.js', api: 'dist/cli/start/api-main.js' };

export async function startProdTopology(options: ProdTopologyOptions): Promise<ProdTopology> {
  for (const main of Object.values(DIST_MAINS))
    if (!existsSync(path.join(ROOT, main))) throw new Error(`${main} is missing: run npm run build first`);
  mkdirSync(options.dataDir, { recursive: true });
  const log = (name: string) => path.join(options.dataDir, `${name}.log`);
  const teardown = createTeardown();
  const { exited, stop } = teardown;
  try {
    const apiPort = options.apiPort ?? (await freePort());
    options.onStart?.('Temporal server');
    const temporal = await startTemporalDevServer({
      port: options.temporalPort,
      uiPort: options.temporalUiPort,
      // Its Web UI decodes payloads through the API's codec endpoint (on when ADMIN_TOKEN is set).
      uiCodecEndpoint: `http://127.0.0.1:${apiPort}/codec`,
      dbFile: path.join(options.dataDir, 'temporal.db'),
      logFile: log('temporal'),
      ownProcessGroup: true,
    });
    teardown.add(temporal.stop);
    if (temporal.pid !== undefined) killOnExit(temporal.pid);

    options.onStart?.('Postgres');
    const postgres = await startPostgresChild({
      dataDir: path.join(options.dataDir, 'postgres'),
      database: 'mcp',
      keep: options.persistent,
      // A fixed port keeps a persistent stack's URL the same across runs.
      port: options.persistent ? 5433 : undefined,
      logFile: log('postgres'),
    });
    teardown.addChild(postgres.process);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: postgres.url,
      TEMPORAL_ADDRESS: temporal.address,
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      // The admin view links to this Web UI, and the codec endpoint answers its origin.
      ...(temporal.uiUrl && !process.env.TEMPORAL_UI_URL ? { TEMPORAL_UI_URL: temporal.uiUrl } : {}),
      ...options.env,
    };
    const taskQueue = env.TEMPORAL_TASK_QUEUE ?? 'mcp-exchanges';
    const start = (name: 'worker' | 'api') => {
      options.onStart?.(name);
      return teardown.addChild(
        // With the heap settings docker-compose.yml gives the process's container.
        spawnChild(name, process.execPath, [DIST_MAINS[name]], {
          cwd: ROOT,
          env: { ...withoutSecretsOfTheOther(name, env), ...composeNodeOptions(name, env) },
          logFile: log(name),
        }),
      );
    };
    // The worker first: both migrate at start, and the API's first legs need a worker polling.
    const worker = start('worker');
    await waitForPollers(temporal.address, taskQueue, exited);
    const api = start('api');
    const apiUrl = `http://127.0.0.1:${apiPort}/mcp`;
    await waitForHealth(apiUrl, exited);
    return {
      apiUrl,
      temporalAddress: temporal.address,
      temporalUiUrl: temporal.uiUrl,
      databaseUrl: postgres.url,
      taskQueue,
      processes: { api, worker },
      exited,
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
