/**
 * docker-compose.yml run as OS processes, without Docker: the same services, started in the order
 * compose starts them (`depends_on` and its conditions: started, healthy by the service's own
 * health check, or a job completed with exit 0), each with the environment, command, mounts and
 * health check the compose file gives it (compose-project.ts), on a loopback address of its own
 * (native-placement.ts), as the image would run it (native-images.ts), its `ports:` published on
 * the host as compose publishes them (published-ports.ts). The compose file stays the one source:
 * change it, and this runs the change.
 *
 * Used by `npm run compose:native` and by the tests of the production topology, which stop, kill
 * and start single services (`stop`, `start`) to fault it.
 *
 * Health checks are run as compose runs them, but polled every 500 ms at most rather than every
 * `interval`, with the same budget (`start_period` + `retries` x `interval`).
 */
import { randomInt } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';
import type { Child } from '../../cli/dev/child-processes';
import { spawnChild } from '../../cli/dev/child-processes';
import { findTemporalCli } from '../../cli/dev/local-stack/temporal-dev-server';
import type { Variables } from './compose-interpolation';
import { readComposeProject } from './compose-project';
import { nativeLaunch, temporalImage, withImageMounts, withProjectImages, type NativeLaunch } from './native-images';
import { placeServices, type PlacedService } from './native-placement';
import { postgresBinDir, startPostgresImage } from './postgres-image';
import { publishPort, type Publisher } from './published-ports';
import { ensureTemporalServer, imageVersion } from './temporal-server-build';

export interface NativeTopologyOptions {
  /** Compose files, the first the main one. Default: the project's docker-compose.yml. */
  files?: string[];
  /** What compose interpolates from (the shell and .env). */
  variables: Variables;
  /** Named volumes, logs and each service's folder. Kept across runs when reused. */
  dataDir: string;
  /** Loopback prefix (three octets); default a random 127.x.y, so two topologies never meet. */
  prefix?: string;
  /** Run only these services and what they depend on (default: all). */
  only?: string[];
  /** Profiles to enable, as `docker compose --profile NAME up` (default: none, services of no profile only). */
  profiles?: string[];
  log?: (line: string) => void;
}

export interface NativeTopology {
  readonly services: Readonly<Record<string, PlacedService>>;
  /** Services compose has that are not run here, and why. */
  readonly notRun: Readonly<Record<string, string>>;
  /** `host:port` of a service's container port. */
  endpoint(service: string, port: number): string;
  /** `host:port` where compose publishes a service's container port (its `ports:`). */
  published(service: string, containerPort: number): string | undefined;
  /** A running service's process. */
  process(service: string): Child | undefined;
  logFile(service: string): string;
  /** Starts one service (again) and waits until it is healthy, or a job until it exits 0. */
  start(service: string): Promise<void>;
  /** Stops one service: SIGTERM (or `signal`), SIGKILL to its group after `graceMs`. */
  stop(service: string, options?: { signal?: NodeJS.Signals; graceMs?: number }): Promise<void>;
  /** Stops every service, dependents first. */
  stopAll(): Promise<void>;
}

const HEALTH_POLL_MS = 500;
const execFileAsync = promisify(execFile);

export async function startNativeTopology(options: NativeTopologyOptions): Promise<NativeTopology> {
  const log = options.log ?? (() => {});
  const files = options.files ?? [path.join(projectRoot(), 'docker-compose.yml')];
  const project = readComposeProject(files, options.variables, { profiles: options.profiles ?? [] });
  project.services = withProjectImages(project.services);
  for (const [name, service] of Object.entries(project.services)) project.services[name] = withImageMounts(service);
  const prefix = options.prefix ?? `127.${randomInt(1, 255)}.${randomInt(1, 255)}`;
  const services = placeServices(project, prefix);
  const image = temporalImage(services);
  if (!image) throw new Error('the compose file has no temporalio/server service');
  const temporal = await ensureTemporalServer(imageVersion(image), log);
  const cli = findTemporalCli();
  if (!cli) throw new Error('no temporal CLI (TEMPORAL_CLI_PATH or on PATH): the namespace job needs it');
  mkdirSync(path.join(options.dataDir, 'logs'), { recursive: true });

  const running = new Map<string, Child>();
  const publishers = new Map<string, Publisher[]>();
  const notRun: Record<string, string> = {};
  const launches = new Map<string, NativeLaunch>();
  const serviceDir = (name: string) => path.join(options.dataDir, 'services', name);
  const logFile = (name: string) => path.join(options.dataDir, 'logs', `${name}.log`);
  for (const [name, service] of Object.entries(services)) {
    mkdirSync(serviceDir(name), { recursive: true });
    const launch = nativeLaunch(service, { temporal, temporalCliDir: path.dirname(cli), serviceDir: serviceDir(name) });
    launches.set(name, launch);
    if (launch.kind === 'not-run') notRun[name] = launch.reason;
  }
  const wanted = options.only ? withDependencies(services, options.only) : undefined;
  const order = startOrder(services).filter((name) => !notRun[name] && (!wanted || wanted.has(name)));

  const launch = async (name: string): Promise<void> => {
    const service = services[name]!;
    const how = launches.get(name)!;
    let child: Child;
    if (how.kind === 'postgres')
      child = startPostgresImage({
        dataDir: path.join(options.dataDir, 'volumes', name),
        address: service.address,
        port: how.port,
        environment: how.env,
        ...(how.initScripts ? { initScripts: how.initScripts } : {}),
        serverArgs: how.serverArgs,
        logFile: logFile(name),
      });
    else if (how.kind === 'process')
      child = spawnChild(name, how.command, how.args, { env: how.env, cwd: how.cwd, logFile: logFile(name) });
    else throw new Error(`${name} is not run natively: ${how.reason}`);
    running.set(name, child);
    log(`${name}: started (pid ${child.pid}) on ${service.address}`);
    if (!publishers.has(name))
      publishers.set(name, await Promise.all(service.ports.map((port) => publishPort(port, service.address))));
    if (service.job) {
      const exit = await child.exit;
      if (exit.code !== 0) throw new Error(`${name} (a job) exited ${exit.code ?? exit.signal}:\n${tail(child)}`);
      log(`${name}: completed`);
    } else if (service.healthcheck) {
      await waitHealthy(service, how, child);
      log(`${name}: healthy`);
    }
  };

  const stop = async (name: string, how: { signal?: NodeJS.Signals; graceMs?: number } = {}) => {
    const child = running.get(name);
    running.delete(name);
    if (child && !child.exited()) await child.stop(how.graceMs ?? 30_000, how.signal ?? 'SIGTERM');
  };

  const stopAll = async () => {
    for (const name of [...order].reverse()) await stop(name, { graceMs: 15_000 });
    for (const list of publishers.values()) await Promise.all(list.map((publisher) => publisher.close()));
    publishers.clear();
  };

  try {
    for (const name of order) {
      for (const [dependency, condition] of Object.entries(services[name]!.dependsOn))
        if (notRun[dependency] && condition !== 'service_started')
          throw new Error(`${name} needs ${dependency} (${condition}), which is not run natively`);
      await launch(name);
    }
  } catch (error) {
    await stopAll();
    throw error;
  }

  return {
    services,
    notRun,
    endpoint: (name, port) => `${services[name]!.address}:${port}`,
    published: (name, containerPort) => {
      const port = services[name]?.ports.find((p) => p.containerPort === containerPort);
      return port ? `${port.hostIp}:${port.hostPort}` : undefined;
    },
    process: (name) => running.get(name),
    logFile,
    start: launch,
    stop,
    stopAll,
  };
}

/** `names` and everything they depend on, directly or not. */
function withDependencies(
  services: Record<string, { dependsOn: Record<string, unknown> }>,
  names: string[],
): Set<string> {
  const wanted = new Set<string>();
  const add = (name: string) => {
    if (wanted.has(name)) return;
    if (!services[name]) throw new Error(`no service ${name} in the compose file`);
    wanted.add(name);
    for (const dependency of Object.keys(services[name].dependsOn)) add(dependency);
  };
  names.forEach(add);
  return wanted;
}

/** Services in an order where each comes after what it depends on; a cycle is an error. */
export function startOrder(services: Record<string, { dependsOn: Record<string, unknown> }>): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, from: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`dependency cycle: ${[...from, name].join(' -> ')}`);
    if (!services[name]) throw new Error(`${from.at(-1)} depends on ${name}, which the compose file does not have`);
    state.set(name, 'visiting');
    for (const dependency of Object.keys(services[name].dependsOn)) visit(dependency, [...from, name]);
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of Object.keys(services)) visit(name, []);
  return order;
}

async function waitHealthy(service: PlacedService, how: NativeLaunch, child: Child): Promise<void> {
  const check = service.healthcheck!;
  // The check runs in the service's environment, with the image's programs (pg_isready, nc, node) on PATH.
  const env =
    how.kind === 'process'
      ? how.env
      : { ...service.environment, PATH: `${postgresBinDir()}:${process.env.PATH ?? ''}` };
  const deadline = Date.now() + check.startPeriodMs + check.retries * check.intervalMs;
  const [program, ...args] = check.command;
  for (;;) {
    const why = child.exited();
    if (why) throw new Error(`${service.name} ${why} before it was healthy:\n${tail(child)}`);
    const passed = await execFileAsync(program!, args, { env, timeout: check.timeoutMs }).then(
      () => true,
      () => false,
    );
    if (passed) return;
    if (Date.now() > deadline)
      throw new Error(`${service.name} not healthy (${check.command.join(' ')}):\n${tail(child)}`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(HEALTH_POLL_MS, check.intervalMs)));
  }
}

function tail(child: Child): string {
  return child.output().split('\n').slice(-30).join('\n');
}
