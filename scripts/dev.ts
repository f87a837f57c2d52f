/**
 * `npm run dev`: the whole service on embedded defaults, no Docker.
 *
 * Temporal: TEMPORAL_ADDRESS, else a dev server from the `temporal` CLI (TEMPORAL_CLI_PATH or
 * PATH; with neither, the SDK downloads it) with its Web UI, persisted in .data/temporal.db so
 * exchanges survive a restart of this command. Postgres: DATABASE_URL, else an embedded one in
 * .data/postgres. Then migrations, the worker and the API, in this process. Ctrl-C stops it all.
 * Keys and the admin token, when not set, are development ones kept in .data; the dev server's
 * Web UI decodes payloads through the API's codec endpoint; questions addressed to someone else
 * are answered at the answer page, through its development sign-in.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, parseConfig } from '../lib/config';
import { devBanner } from '../devtools/dev-banner';
import {
  adminTokenFrom,
  answerPageFrom,
  codecEndpointForBrowser,
  devServiceEnvironment,
} from '../devtools/dev-environment';
import { startLocalStack, type LocalStack } from '../devtools/local-stack/local-stack';
import { createLogger } from '../lib/log';
import { projectRoot } from '../lib/paths';
import { installTemporalRuntime } from '../lib/temporal-logging';
import { HandlerModuleError, loadHandlers } from '../services/runtime/handler-module';
import { startService, type RunningService } from '../services/runtime/start-service';
import { stopOnSignal } from '../services/runtime/stop-on-signal';
import {
  freeLoopbackPort,
  startWorkerMetricsListener,
  type WorkerMetricsListener,
} from '../services/worker/src/metrics-listener';

const DATA_DIR = path.join(projectRoot(), '.data');
const TEMPORAL_PORT = Number(process.env.TEMPORAL_DEV_PORT ?? 7233);
const TEMPORAL_UI_PORT = Number(process.env.TEMPORAL_DEV_UI_PORT ?? 8233);

async function main(): Promise<void> {
  mkdirSync(DATA_DIR, { recursive: true });
  const log = createLogger('dev', process.env.LOG_LEVEL ?? 'info');
  // Installed before anything connects; its exporter feeds the worker metrics listener below.
  const sdkMetrics = `127.0.0.1:${await freeLoopbackPort()}`;
  installTemporalRuntime(log, { level: 'WARN', prometheusBindAddress: sdkMetrics });
  let local: LocalStack | undefined;
  let service: RunningService | undefined;
  let workerMetrics: WorkerMetricsListener | undefined;
  const stopAll = async () => {
    try {
      await service?.stop();
      await workerMetrics?.close();
    } finally {
      await local?.stop();
    }
  };
  // Installed first, so a Ctrl-C while things start stops what has started.
  stopOnSignal({ log, label: 'dev stack', stop: stopAll });

  try {
    local = await startLocalStack({
      dataDir: DATA_DIR,
      database: 'mcp',
      persistent: true,
      temporalPort: TEMPORAL_PORT,
      temporalUiPort: TEMPORAL_UI_PORT,
      temporalUiCodecEndpoint: codecEndpointForBrowser(),
      waitForExternalTemporal: false,
      onStart: (server) =>
        server === 'postgres'
          ? log.info('starting an embedded Postgres in .data/postgres')
          : log.info({ port: TEMPORAL_PORT }, 'starting a Temporal dev server (history kept in .data/temporal.db)'),
    });
    const env = devServiceEnvironment(DATA_DIR, local, log);
    const config = parseConfig(env);
    const handlers = await loadHandlers(config.handlers);
    service = await startService({
      config,
      handlers,
      log,
      apiLog: log.child({ component: 'api' }),
      workerLog: log.child({ component: 'worker' }),
    });
    const url = service.api!.url;
    if (config.workerMetrics)
      workerMetrics = await startWorkerMetricsListener({
        ...config.workerMetrics,
        sdkMetricsUrl: `http://${sdkMetrics}/metrics`,
        log: log.child({ component: 'worker' }),
      }).catch((error: unknown) => {
        log.error({ err: error }, 'worker metrics listener could not start (WORKER_METRICS_PORT); running without it');
        return undefined;
      });

    process.stdout.write(
      devBanner({
        url,
        handlerSet: handlers.set.name,
        handlerVersion: handlers.version,
        answerPage: answerPageFrom(env),
        adminTokenFrom: adminTokenFrom(DATA_DIR),
        workerMetrics:
          workerMetrics?.url ??
          (config.workerMetrics ? '(not listening: see the log)' : '(off: WORKER_METRICS_PORT=0)'),
        temporalAddress: config.temporal.address,
        temporalUiUrl: local.temporalUiUrl,
      }),
    );
  } catch (error) {
    // A configuration or handler module at fault is said in its own words; anything else with its stack.
    if (error instanceof ConfigError || error instanceof HandlerModuleError) log.error(error.message);
    else log.error({ err: error }, 'dev stack failed to start');
    await stopAll().catch((stopError: unknown) => log.warn({ err: stopError }, 'dev stack did not stop cleanly'));
    process.exit(1);
  }
}

// main reports its own failures and exits 1; only a failure before its try (creating .data, the logger)
// escapes, and Node's unhandled-rejection default then prints it and exits 1, as it should.
void main();
