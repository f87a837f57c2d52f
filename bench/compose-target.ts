/**
 * The bench's production-server targets, on docker-compose.yml run natively
 * (scripts/compose-native): Temporal 1.32 on Postgres with SQL visibility and compose's history
 * shards, each target on a fresh topology of its own.
 *
 * - compose: the whole topology, the service's API and worker from dist/ with compose's
 *   environment (HANDLER_SET=bench); the bench calls the API on its own address (no port-publishing
 *   hop in the bench's process).
 * - bare-compose: only Postgres, the schema job, Temporal and the namespace job, with bare Temporal
 *   (signal + local activity, bench/baselines/bare-temporal.ts) on that server: the service's
 *   baseline on the same kind of server.
 *
 * Postgres here holds Temporal's databases and, for compose, the service's: its CPU is the
 * `postgres` role of both.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { spawnChild } from '../cli/dev/child-processes';
import { startNativeTopology } from '../scripts/compose-native/compose-native';
import { freePort } from '../cli/dev/local-stack/free-port';
import { waitForHealth, waitForPollers } from '../cli/dev/readiness';
import { projectRoot } from '../lib/paths';
import { httpCaller } from './http-caller';
import type { Role, RunningTarget, TargetContext, TargetSpec } from './target-types';

const ROOT = projectRoot(__dirname);
const SERVICES_OF_BARE = ['temporal-create-namespace'];

export async function startComposeTarget(spec: TargetSpec, ctx: TargetContext): Promise<RunningTarget> {
  chmodSync(ctx.dir, 0o755); // as root, Postgres runs as the postgres user, which must reach its folder
  const bare = spec.name === 'bare-compose';
  const topology = await startNativeTopology({
    variables: {
      ...process.env,
      POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
      MCP_DB_PASSWORD: randomBytes(12).toString('hex'),
      REQUEST_STATE_KEYS: `bench:${randomBytes(32).toString('base64')}`,
      PAYLOAD_CODEC_KEYS: `benchcodec:${randomBytes(32).toString('base64')}`,
      // One principal opening many exchanges of the same call: each is its own, not a repeat to join.
      REATTACH_IDENTICAL_CALLS_MS: '0',
      EVIDENCE_SIGNING_KEYS: `benchevidence:${randomBytes(32).toString('base64')}`,
      ALLOW_UNAUTHENTICATED: 'true',
      HANDLER_SET: 'bench',
      LOG_LEVEL: ctx.logLevel,
      API_PORT: String(await freePort()),
      TEMPORAL_PORT: String(await freePort()),
      WORKER_METRICS_PORT: String(await freePort()),
      ...ctx.serviceEnv,
    },
    dataDir: ctx.dir,
    ...(bare ? { only: SERVICES_OF_BARE } : {}),
  });
  const stops: Array<() => Promise<void>> = [() => topology.stopAll()];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
  };
  try {
    const pid = (service: string) => [topology.process(service)!.pid];
    const processes: Partial<Record<Role, number[]>> = { temporal: pid('temporal'), postgres: pid('postgresql') };
    const temporalAddress = topology.endpoint('temporal', 7233);
    const exited = () =>
      ['temporal', 'postgresql', ...(bare ? [] : ['api', 'worker'])]
        .map((name) => topology.process(name)?.exited())
        .find(Boolean);
    /** The running target, served over HTTP at `url`, its exchanges on `taskQueue`. */
    const running = (url: string, taskQueue: string, gone: () => string | undefined): RunningTarget => ({
      spec,
      url,
      call: httpCaller(url),
      processes,
      temporal: { address: temporalAddress, taskQueue },
      exited: gone,
      stop,
    });
    if (!bare) {
      processes.api = pid('api');
      processes.worker = pid('worker');
      const api = topology.services.api!;
      const url = `http://${topology.endpoint('api', Number(api.environment.PORT))}/mcp`;
      const taskQueue = api.environment.TEMPORAL_TASK_QUEUE!;
      await waitForPollers(temporalAddress, taskQueue, exited);
      return running(url, taskQueue, exited);
    }
    const port = await freePort();
    const taskQueue = `bench-${spec.name}-${randomUUID().slice(0, 8)}`;
    const child = spawnChild(spec.name, process.execPath, ['--import', 'tsx', 'bench/baselines/bare-temporal.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        TEMPORAL_ADDRESS: temporalAddress,
        BARE_TASK_QUEUE: taskQueue,
        BARE_ACTIVITY: 'local',
      },
      logFile: path.join(ctx.dir, `${spec.name}.log`),
    });
    stops.push(() => child.stop());
    processes.api = [child.pid];
    const url = `http://127.0.0.1:${port}/mcp`;
    const gone = () => child.exited() ?? exited();
    await waitForHealth(url, gone);
    await waitForPollers(temporalAddress, taskQueue, gone);
    return running(url, taskQueue, gone);
  } catch (error) {
    await stop();
    throw error;
  }
}
