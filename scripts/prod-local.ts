/**
 * `npm run prod:local`: the service as production runs it, as local processes (no Docker): the
 * built API and worker from dist/ as two processes, a Temporal server on a database file with its
 * Web UI, and Postgres (scripts/prod-topology.ts): the topology of docker-compose.yml. The npm script
 * builds first. History and data are kept in .data/prod (STACK_DATA_DIR) across runs.
 *
 * Ports: PORT (API, 3000), TEMPORAL_DEV_PORT (7233), TEMPORAL_DEV_UI_PORT (8080, as compose; 0 for
 * no UI); 0 for PORT or TEMPORAL_DEV_PORT picks a free one at start. Every other variable of lib/config.ts passes through to the API and the worker;
 * REQUEST_STATE_KEYS, PAYLOAD_CODEC_KEYS, EVIDENCE_SIGNING_KEYS and ADMIN_TOKEN, when unset, are development values kept
 * in the data folder; the Web UI decodes payloads through the API's codec endpoint. Ctrl-C stops it all.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { devKeyRings, devSecret } from '../cli/dev/dev-key-ring';
import { startProdTopology, type ProdTopology } from './prod-topology';
import { createLogger } from '../lib/log';
import { projectRoot } from '../lib/paths';
import { stopOnSignal } from '../cli/start/stop-on-signal';

const DATA_DIR = path.resolve(process.env.STACK_DATA_DIR ?? path.join(projectRoot(), '.data', 'prod'));
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
/** A port that 0 leaves to the stack to pick (a free one, picked again if taken before it is bound). */
const portOrPicked = (name: string, fallback: number) => port(name, fallback) || undefined;

async function main(): Promise<void> {
  mkdirSync(DATA_DIR, { recursive: true });
  const log = createLogger('stack', process.env.LOG_LEVEL ?? 'info');
  let stack: ProdTopology | undefined;
  let watch: NodeJS.Timeout | undefined;
  stopOnSignal({
    log,
    label: 'production stack',
    stop: async () => {
      clearInterval(watch); // its processes exit now because they are told to
      await stack?.stop();
    },
  });
  try {
    const uiPort = port('TEMPORAL_DEV_UI_PORT', 8080);
    stack = await startProdTopology({
      dataDir: DATA_DIR,
      persistent: process.env.STACK_PERSISTENT !== 'false',
      apiPort: portOrPicked('PORT', 3000),
      temporalPort: portOrPicked('TEMPORAL_DEV_PORT', 7233),
      temporalUiPort: uiPort || undefined,
      env: {
        ...devKeyRings(DATA_DIR, log),
        // The Web UI decodes payloads through the API's codec endpoint, which the admin token turns on.
        ADMIN_TOKEN: process.env.ADMIN_TOKEN || devSecret(DATA_DIR, log, 'ADMIN_TOKEN'),
      },
      onStart: (what) => log.info(`starting ${what}`),
    });
    const running = stack;
    const url = running.apiUrl;
    process.stdout.write(
      [
        '',
        `  MCP endpoint     ${url}   (API from dist/, pid ${running.processes.api.pid})`,
        `  Worker           from dist/, pid ${running.processes.worker.pid}, task queue ${running.taskQueue}`,
        `  Health           ${url.replace(/\/mcp$/, '/healthz')}`,
        `  Temporal         ${running.temporalAddress}`,
        `  Temporal Web UI  ${running.temporalUiUrl ?? '(off)'}`,
        `  Codec            ${url.replace(/\/mcp$/, '/codec')}   (sign in at ${url.replace(/\/mcp$/, '/codec/sign-in')} to see payloads decoded in the Web UI)`,
        `  Logs and data    ${DATA_DIR}`,
        '',
        '  Ctrl-C stops everything.',
        '',
      ].join('\n'),
    );
    // A process that dies on its own ends the stack, loudly, instead of leaving half of it serving.
    watch = setInterval(() => {
      const why = running.exited();
      if (!why) return;
      clearInterval(watch);
      log.error({ why }, 'a process of the stack exited; stopping the rest');
      void running.stop().finally(() => process.exit(1));
    }, 1_000);
    watch.unref();
  } catch (error) {
    log.error({ err: error }, 'production stack failed to start');
    await stack?.stop().catch(() => undefined);
    process.exit(1);
  }
}

// main reports its own failures and exits 1; only a failure before its try escapes, and Node's
// unhandled-rejection default then prints it and exits 1, as it should.
void main();
