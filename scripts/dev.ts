/**
 * `npm run dev`: the whole service on embedded defaults, no Docker.
 *
 * Temporal: TEMPORAL_ADDRESS, else a dev server from the `temporal` CLI (TEMPORAL_CLI_PATH or
 * PATH; with neither, the SDK downloads it) with its Web UI, persisted in .data/temporal.db so
 * exchanges survive a restart of this command. Postgres: DATABASE_URL, else an embedded one in
 * .data/postgres. Then migrations, the worker and the API, in this process. Ctrl-C stops it all.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { loadHandlerSet } from '../handlers';
import { ConfigError, parseConfig } from '../lib/config';
import { migrate } from '../lib/db/migrate';
import { createPool } from '../lib/db/pool';
import { startLocalPostgres } from '../lib/local-stack/local-postgres';
import { startTemporalDevServer } from '../lib/local-stack/temporal-dev-server';
import { createLogger } from '../lib/log';
import { projectRoot } from '../lib/paths';
import { installTemporalLogger } from '../lib/temporal-logging';
import { startApi } from '../services/api/src/api';
import { createExchangeWorker } from '../services/worker/src/worker';

const DATA_DIR = path.join(projectRoot(), '.data');
const TEMPORAL_PORT = Number(process.env.TEMPORAL_DEV_PORT ?? 7233);
const TEMPORAL_UI_PORT = Number(process.env.TEMPORAL_DEV_UI_PORT ?? 8233);

/** A development key, made once and kept in .data so restarts can open earlier requestStates. */
function devKeyRing(log: ReturnType<typeof createLogger>): string {
  const file = path.join(DATA_DIR, 'dev-request-state-key');
  if (!existsSync(file)) writeFileSync(file, `dev:${randomBytes(32).toString('base64')}`, { mode: 0o600 });
  log.warn(
    { file },
    'REQUEST_STATE_KEYS is not set: using a DEVELOPMENT key from .data. Never run production like this; set REQUEST_STATE_KEYS.',
  );
  return readFileSync(file, 'utf8').trim();
}

async function main(): Promise<void> {
  mkdirSync(DATA_DIR, { recursive: true });
  const log = createLogger('dev', process.env.LOG_LEVEL ?? 'info');
  installTemporalLogger(log, 'WARN');
  const stops: Array<[string, () => Promise<void>]> = [];
  const stopAll = async () => {
    for (const [name, stop] of stops.reverse()) {
      await stop().catch((error) => log.warn({ err: error }, `${name} did not stop cleanly`));
    }
  };

  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, 'stopping everything');
    stopAll().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  try {
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      log.info('starting an embedded Postgres in .data/postgres');
      const pg = await startLocalPostgres({ dataDir: path.join(DATA_DIR, 'postgres'), database: 'mcp', persistent: true });
      stops.push(['postgres', pg.stop]);
      databaseUrl = pg.url;
    }

    let temporalAddress = process.env.TEMPORAL_ADDRESS;
    let temporalUi = process.env.TEMPORAL_UI_URL;
    if (!temporalAddress) {
      log.info({ port: TEMPORAL_PORT }, 'starting a Temporal dev server (history kept in .data/temporal.db)');
      const temporal = await startTemporalDevServer({
        port: TEMPORAL_PORT,
        uiPort: TEMPORAL_UI_PORT,
        dbFile: path.join(DATA_DIR, 'temporal.db'),
        logFile: path.join(DATA_DIR, 'temporal.log'),
      });
      stops.push(['temporal', temporal.stop]);
      temporalAddress = temporal.address;
      temporalUi = temporal.uiUrl;
    }

    const config = parseConfig({
      NODE_ENV: 'development',
      ...process.env,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      REQUEST_STATE_KEYS: process.env.REQUEST_STATE_KEYS ?? devKeyRing(log),
    });
    const pool = createPool(config.database.url, config.database.poolSize, log);
    stops.push(['pool', () => pool.end()]);
    await migrate(pool, log);

    const handlers = loadHandlerSet(config.handlerSet);
    const connection = await NativeConnection.connect({ address: config.temporal.address });
    stops.push(['temporal connection', () => connection.close()]);
    const worker = await createExchangeWorker({ config, pool, handlers, log: log.child({ component: 'worker' }), connection });
    const workerDone = worker.run();
    stops.push(['worker', async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await workerDone;
    }]);

    const api = await startApi(config, handlers, log.child({ component: 'api' }));
    stops.push(['api', api.close]);

    process.stdout.write(
      [
        '',
        `  MCP endpoint     ${api.url}   (2026-07-28 and handshake-era clients; handler set "${handlers.name}")`,
        `  2024-11-05 SSE   ${api.url.replace(/\/mcp$/, '/sse')}`,
        `  Health           ${api.url.replace(/\/mcp$/, '/healthz')}`,
        `  Temporal         ${config.temporal.address}`,
        `  Temporal Web UI  ${temporalUi ?? '(external Temporal: see its own UI)'}`,
        '',
        '  Ctrl-C stops everything.',
        '',
      ].join('\n'),
    );
  } catch (error) {
    log.error({ err: error }, error instanceof ConfigError ? error.message : 'dev stack failed to start');
    await stopAll();
    process.exit(1);
  }
}

// main reports its own failures and exits 1; only a failure before its try (creating .data, the logger)
// escapes, and Node's unhandled-rejection default then prints it and exits 1, as it should.
void main();
