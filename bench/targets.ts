/**
 * The targets the bench compares, each started fresh: its own Temporal dev server (on a new
 * database file, started as `npm run dev` starts it, plus the bench's `--temporal-flags`), its own
 * Postgres database (on one embedded Postgres for the run) and its own processes.
 *
 * - dev: `tsx cli/main.ts start all`, the API and the worker in one process, as `npm run dev` runs them
 * - prod: the built dist/, `node dist/cli/start/{worker,api}-main.js`, two processes, each with the
 *   `NODE_OPTIONS` docker-compose.yml gives its container
 * - gateway: the service as dev runs it, serving no tools of its own, in front of the sdk target's
 *   server as its upstream (`HANDLERS=none`, `UPSTREAM_URL`): the gateway's cost over that server
 * - gateway-local: the same, the upstream's rounds run as local activities
 *   (`UPSTREAM_ROUND_ACTIVITY=local`): what running them inside the workflow task saves
 * - sdk: the official SDK 2.4's in-memory server (bench/baselines/sdk-server.ts)
 * - bare-regular, bare-local: bare Temporal in one process (bench/baselines/bare-temporal.ts)
 * - bare-split: bare-local's front and worker as two processes, the step posted back over HTTP
 * - floor: bare-split with no HTTP leg: the bench's own process is the client (bench/baselines/floor-client.ts)
 * - compose, bare-compose: the service and bare Temporal on docker-compose.yml run natively
 *   (Temporal on Postgres; bench/compose-target.ts)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { freePort } from '../cli/dev/local-stack/free-port';
import { startTemporalDevServer } from '../cli/dev/local-stack/temporal-dev-server';
import { projectRoot } from '../lib/paths';
import { killOnExit, spawnChild, type Child } from '../cli/dev/child-processes';
import { createTeardown } from '../cli/dev/teardown';
import { startPostgresChild } from '../scripts/postgres-child';
import { waitForHealth, waitForPollers } from '../cli/dev/readiness';
import type { TargetName } from './options';
import type { Role, RunningTarget, SharedPostgres, TargetContext, TargetSpec } from './target-types';
import { cpuProfileArgs } from './cpu-profile';
import { startComposeTarget } from './compose-target';
import { inspectorUrlFromLog } from '../scripts/inspector-session';
import { composeNodeOptions } from '../scripts/compose-node-options';
import { startFloorClient } from './baselines/floor-client';
import { httpCaller } from './http-caller';
import { serviceEnv } from './service-env';

export const TARGET_SPECS: Record<TargetName, TargetSpec> = {
  dev: { name: 'dev', label: 'service, dev mode (API + worker in one process)', oneProcess: true, temporal: true },
  prod: {
    name: 'prod',
    label: 'service, production (dist/, API and worker processes)',
    oneProcess: false,
    temporal: true,
  },
  gateway: {
    name: 'gateway',
    label: "gateway: dev mode, HANDLERS=none, the sdk target's server as its UPSTREAM_URL (a process of its own)",
    oneProcess: true,
    temporal: true,
  },
  'gateway-local': {
    name: 'gateway-local',
    label: "gateway, its upstream's rounds as local activities (UPSTREAM_ROUND_ACTIVITY=local)",
    oneProcess: true,
    temporal: true,
  },
  sdk: { name: 'sdk', label: 'official SDK 2.4 in-memory server (no durability)', oneProcess: true, temporal: false },
  'bare-regular': {
    name: 'bare-regular',
    label: 'bare Temporal, signal + regular activity',
    oneProcess: true,
    temporal: true,
  },
  'bare-local': {
    name: 'bare-local',
    label: 'bare Temporal, signal + local activity',
    oneProcess: true,
    temporal: true,
  },
  'bare-split': {
    name: 'bare-split',
    label: 'bare Temporal, signal + local activity, the front (HTTP + client) and the worker as two processes',
    oneProcess: false,
    temporal: true,
  },
  floor: {
    name: 'floor',
    label:
      'bare Temporal with no HTTP leg: this bench starts and signals the workflow itself, a worker process runs each round in a local activity and posts its step back',
    oneProcess: false,
    temporal: true,
  },
  compose: {
    name: 'compose',
    label: 'service on docker-compose.yml run natively (Temporal 1.32 on Postgres, 4 shards)',
    oneProcess: false,
    temporal: true,
  },
  'bare-compose': {
    name: 'bare-compose',
    label: "bare Temporal, signal + local activity, on the compose topology's Temporal",
    oneProcess: true,
    temporal: true,
  },
};

export async function startSharedPostgres(dataDir: string): Promise<SharedPostgres> {
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const pg = await startPostgresChild({ dataDir, database: 'postgres', keep: false, logFile: `${dataDir}.log` });
  return {
    pid: pg.pid,
    async database(name) {
      const admin = new PgClient({ connectionString: pg.url });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.end();
      }
      return pg.url.replace(/\/postgres$/, `/${name}`);
    },
    stop: () => pg.stop(),
  };
}

const ROOT = projectRoot(__dirname);
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
/** The service in one process, as `npm run dev` starts it once its local stack is up. */
const DEV_SERVICE = ['cli/main.ts', 'start', 'all'];
/** Bare Temporal's process, in the role its environment names (bench/baselines/bare-temporal.ts). */
const BARE = 'bench/baselines/bare-temporal.ts';
/** The official SDK's in-memory server: the `sdk` target, and the gateway targets' upstream. */
const SDK_SERVER = 'bench/baselines/sdk-server.ts';

export async function startTarget(spec: TargetSpec, ctx: TargetContext): Promise<RunningTarget> {
  mkdirSync(ctx.dir, { recursive: true });
  if (spec.name === 'compose' || spec.name === 'bare-compose') return startComposeTarget(spec, ctx);
  const teardown = createTeardown();
  const { exited, stop } = teardown;
  const start = (name: string, command: string, args: string[], env: Record<string, string>) => {
    return teardown.addChild(
      spawnChild(name, command, args, {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: ctx.logLevel, ...env },
        logFile: path.join(ctx.dir, `${name}.log`),
      }),
    );
  };

  try {
    const processes: Partial<Record<Role, number[]>> = {};
    let temporal: RunningTarget['temporal'];
    if (spec.temporal) {
      // Its Prometheus endpoint carries the `action` counter: Temporal's own count of billable actions.
      const metricsPort = await freePort();
      const server = await startTemporalDevServer({
        dbFile: path.join(ctx.dir, 'temporal.db'),
        logFile: path.join(ctx.dir, 'temporal.log'),
        extraArgs: [...ctx.temporalFlags, '--metrics-port', String(metricsPort)],
        // Its own process group: a Ctrl-C reaches the bench, which stops the target's processes first.
        ownProcessGroup: true,
      });
      if (server.pid !== undefined) killOnExit(server.pid);
      teardown.add(server.stop);
      if (server.pid === undefined) throw new Error('the Temporal dev server was not started here (no pid to measure)');
      processes.temporal = [server.pid];
      temporal = {
        address: server.address,
        taskQueue: `bench-${spec.name}-${randomUUID().slice(0, 8)}`,
        metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
      };
    }
    // Under --profile, node runs each process itself (tsx as a loader), so the flags reach it.
    const profiled = (role: Role) => [
      ...cpuProfileArgs(ctx.profileDir, spec.name, role),
      ...(ctx.inspect ? ['--inspect=127.0.0.1:0'] : []),
    ];
    const inspectors: Partial<Record<Role, string>> = {};
    const inspectorOf = async (role: Role, name: string, child: Child) => {
      if (ctx.inspect)
        inspectors[role] = await inspectorUrlFromLog(name, path.join(ctx.dir, `${name}.log`), ready(child));
    };
    const ready = (child: Child) => () => child.exited() ?? (ctx.signal.aborted ? 'bench interrupted' : undefined);

    if (spec.name === 'floor') {
      // The client is this process: its CPU is the bench's (the client column), not the target's.
      const client = await startFloorClient(temporal!.address, temporal!.taskQueue);
      teardown.add(() => client.close());
      const worker = start('floor-worker', process.execPath, [...profiled('worker'), '--import', 'tsx', BARE], {
        TEMPORAL_ADDRESS: temporal!.address,
        BARE_TASK_QUEUE: temporal!.taskQueue,
        BARE_ACTIVITY: 'local',
        BARE_ROLE: 'worker',
        BARE_FRONT_URL: client.outcomeUrl,
      });
      processes.worker = [worker.pid];
      await waitForPollers(temporal!.address, temporal!.taskQueue, ready(worker));
      return { spec, call: client.call, processes, temporal, exited, stop };
    }

    // Every target from here on is served over HTTP.
    const port = ctx.port ?? (await freePort());
    const url = `http://127.0.0.1:${port}/mcp`;

    const gateway = spec.name === 'gateway' || spec.name === 'gateway-local';
    if (spec.name === 'dev' || spec.name === 'prod' || gateway) {
      let upstreamUrl: string | undefined;
      if (gateway) {
        // The upstream first: the service lists its tools as it starts.
        const upstreamPort = await freePort();
        const upstream = start('upstream', process.execPath, [...profiled('upstream'), '--import', 'tsx', SDK_SERVER], {
          PORT: String(upstreamPort),
        });
        processes.upstream = [upstream.pid];
        upstreamUrl = `http://127.0.0.1:${upstreamPort}/mcp`;
        await waitForHealth(upstreamUrl, ready(upstream));
      }
      const pg = await ctx.postgres();
      processes.postgres = [pg.pid];
      const env = {
        ...serviceEnv({
          databaseUrl: await pg.database(`bench_${spec.name}_${randomBytes(3).toString('hex')}`),
          temporalAddress: temporal!.address,
          taskQueue: temporal!.taskQueue,
          port,
          ...(upstreamUrl ? { upstreamUrl } : {}),
          ...(spec.name === 'gateway-local' ? { upstreamRounds: 'local' as const } : {}),
        }),
        ...ctx.serviceEnv,
      };
      if (spec.name !== 'prod') {
        const service =
          ctx.profileDir || ctx.inspect
            ? start('service', process.execPath, [...profiled('api'), '--import', 'tsx', ...DEV_SERVICE], env)
            : start('service', TSX, DEV_SERVICE, env);
        processes.api = [service.pid];
        await inspectorOf('api', 'service', service);
        await waitForHealth(url, ready(service));
        await waitForPollers(temporal!.address, temporal!.taskQueue, ready(service));
      } else {
        // Worker first: both processes migrate at start, and the API's first legs need pollers.
        // Each process with the heap settings docker-compose.yml gives its container.
        const worker = start('worker', process.execPath, [...profiled('worker'), 'dist/cli/start/worker-main.js'], {
          ...env,
          ...composeNodeOptions('worker'),
        });
        processes.worker = [worker.pid];
        await inspectorOf('worker', 'worker', worker);
        await waitForPollers(temporal!.address, temporal!.taskQueue, ready(worker));
        const api = start('api', process.execPath, [...profiled('api'), 'dist/cli/start/api-main.js'], {
          ...env,
          ...composeNodeOptions('api'),
        });
        processes.api = [api.pid];
        await inspectorOf('api', 'api', api);
        await waitForHealth(url, ready(api));
      }
    } else if (spec.name === 'sdk') {
      const server = start('sdk', process.execPath, [...profiled('api'), '--import', 'tsx', SDK_SERVER], {
        PORT: String(port),
      });
      processes.api = [server.pid];
      await waitForHealth(url, ready(server));
    } else if (spec.name === 'bare-split') {
      const env = {
        PORT: String(port),
        TEMPORAL_ADDRESS: temporal!.address,
        BARE_TASK_QUEUE: temporal!.taskQueue,
        BARE_ACTIVITY: 'local',
        BARE_FRONT_URL: `http://127.0.0.1:${port}`,
      };
      const front = start('bare-front', process.execPath, [...profiled('api'), '--import', 'tsx', BARE], {
        ...env,
        BARE_ROLE: 'front',
      });
      processes.api = [front.pid];
      await waitForHealth(url, ready(front));
      const worker = start('bare-worker', process.execPath, [...profiled('worker'), '--import', 'tsx', BARE], {
        ...env,
        BARE_ROLE: 'worker',
      });
      processes.worker = [worker.pid];
      await waitForPollers(temporal!.address, temporal!.taskQueue, ready(worker));
    } else {
      const bare = start(spec.name, process.execPath, [...profiled('api'), '--import', 'tsx', BARE], {
        PORT: String(port),
        TEMPORAL_ADDRESS: temporal!.address,
        BARE_TASK_QUEUE: temporal!.taskQueue,
        BARE_ACTIVITY: spec.name === 'bare-local' ? 'local' : 'regular',
      });
      processes.api = [bare.pid];
      await waitForHealth(url, ready(bare));
      await waitForPollers(temporal!.address, temporal!.taskQueue, ready(bare));
    }
    return {
      spec,
      url,
      call: httpCaller(url),
      processes,
      temporal,
      ...(ctx.inspect ? { inspectors } : {}),
      exited,
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
