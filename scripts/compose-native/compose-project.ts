/**
 * docker-compose.yml (and override files over it) read as Compose reads it: YAML with merge keys,
 * every string interpolated from the given variables (compose-interpolation.ts), files merged in
 * order, and each service's settings in one normal form (environment as a map, volumes as
 * source/target pairs, depends_on with conditions). What the native runner starts, and nothing it
 * makes up: a service's image, command, environment, mounts, health check and order all come from
 * here.
 *
 * Merging follows the Compose Specification's rules for the keys this project uses: mappings
 * (environment, depends_on, healthcheck) merge key by key, `volumes` by target, `ports` append, and
 * `command`, `entrypoint` and `healthcheck.test` are replaced.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { interpolate, type Variables } from './compose-interpolation';
import { enabledServices } from './compose-profiles';

export type DependencyCondition = 'service_started' | 'service_healthy' | 'service_completed_successfully';

export interface Mount {
  /** An absolute path on the host (relative sources are resolved against the first file's folder). */
  source: string;
  /** The path inside the container. */
  target: string;
  readOnly: boolean;
}

/** A `ports:` entry: the host's `hostIp:hostPort` forwarded to the container's `containerPort`. */
export interface PublishedPort {
  hostIp: string;
  hostPort: number;
  containerPort: number;
}

export interface HealthCheck {
  /** `CMD` arguments, or `CMD-SHELL`'s one command line as `['sh', '-c', line]`. */
  command: string[];
  intervalMs: number;
  timeoutMs: number;
  retries: number;
  startPeriodMs: number;
}

export interface ComposeService {
  name: string;
  image?: string;
  /** Set when the service is built from this project (`build:`). */
  build?: { context: string; dockerfile: string };
  entrypoint?: string[];
  command?: string[];
  environment: Record<string, string>;
  mounts: Mount[];
  ports: PublishedPort[];
  dependsOn: Record<string, DependencyCondition>;
  healthcheck?: HealthCheck;
  /** A job (`restart: "no"`) runs once to completion; the others are kept running. */
  job: boolean;
}

export interface ComposeProject {
  name: string;
  services: Record<string, ComposeService>;
}

/**
 * Reads and merges `files` (the first is the main file), interpolated from `variables`, with the
 * services `profiles` enable (compose-profiles.ts): none given, as `docker compose up` without
 * `--profile`, only the services of no profile.
 */
export function readComposeProject(
  files: string[],
  variables: Variables,
  options: { profiles?: string[] } = {},
): ComposeProject {
  if (!files.length) throw new Error('no compose file given');
  const projectDir = path.dirname(path.resolve(files[0]!));
  let merged: Record<string, unknown> = {};
  for (const file of files) {
    const raw = parse(readFileSync(file, 'utf8'), { merge: true }) as Record<string, unknown>;
    merged = mergeFiles(merged, interpolateAll(raw, variables) as Record<string, unknown>);
  }
  const services = enabledServices(
    (merged.services ?? {}) as Record<string, Record<string, unknown>>,
    options.profiles ?? [],
  );
  return {
    name: String(merged.name ?? path.basename(projectDir)),
    services: Object.fromEntries(
      Object.entries(services).map(([name, raw]) => [name, normaliseService(name, raw, projectDir)]),
    ),
  };
}

/** Interpolates every string in a parsed file; top-level `x-` keys are fragments and stay as they are. */
function interpolateAll(value: unknown, variables: Variables, key?: string): unknown {
  if (typeof value === 'string') return interpolate(value, variables);
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, variables));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([k]) => !(key === undefined && k.startsWith('x-')),
    );
    return Object.fromEntries(entries.map(([k, v]) => [k, interpolateAll(v, variables, k)]));
  }
  return value;
}

function mergeFiles(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const baseServices = (base.services ?? {}) as Record<string, Record<string, unknown>>;
  const overServices = (over.services ?? {}) as Record<string, Record<string, unknown>>;
  const services: Record<string, Record<string, unknown>> = { ...baseServices };
  for (const [name, service] of Object.entries(overServices))
    services[name] = baseServices[name] ? mergeService(baseServices[name], service) : service;
  return { ...base, ...over, services };
}

function mergeService(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const previous = base[key];
    if (key === 'environment' || key === 'depends_on') merged[key] = { ...asMap(previous, key), ...asMap(value, key) };
    else if (key === 'healthcheck') merged[key] = { ...(previous as object), ...(value as object) };
    else if (key === 'volumes') {
      const byTarget = new Map<string, unknown>();
      for (const volume of [...((previous as unknown[]) ?? []), ...(value as unknown[])])
        byTarget.set(volumeTarget(volume), volume);
      merged[key] = [...byTarget.values()];
    } else if (key === 'ports') merged[key] = [...((previous as unknown[]) ?? []), ...(value as unknown[])];
    else merged[key] = value;
  }
  return merged;
}

/** `environment` and `depends_on` are maps or lists (`KEY=value`, or service names). */
function asMap(value: unknown, key: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!Array.isArray(value)) return value as Record<string, unknown>;
  if (key === 'depends_on') return Object.fromEntries(value.map((name) => [String(name), {}]));
  return Object.fromEntries(
    value.map((entry) => {
      const text = String(entry);
      const equals = text.indexOf('=');
      return equals < 0 ? [text, undefined] : [text.slice(0, equals), text.slice(equals + 1)];
    }),
  );
}

function volumeTarget(volume: unknown): string {
  if (typeof volume === 'string') return volume.split(':')[1] ?? volume;
  return String((volume as { target?: string }).target);
}

function normaliseService(name: string, raw: Record<string, unknown>, projectDir: string): ComposeService {
  const build = raw.build as { context?: string; dockerfile?: string } | string | undefined;
  return {
    name,
    ...(raw.image !== undefined ? { image: String(raw.image) } : {}),
    ...(build !== undefined
      ? {
          build: {
            context: path.resolve(projectDir, typeof build === 'string' ? build : (build.context ?? '.')),
            dockerfile: typeof build === 'string' ? 'Dockerfile' : (build.dockerfile ?? 'Dockerfile'),
          },
        }
      : {}),
    ...(raw.entrypoint !== undefined ? { entrypoint: commandArgs(raw.entrypoint) } : {}),
    ...(raw.command !== undefined ? { command: commandArgs(raw.command) } : {}),
    environment: Object.fromEntries(
      Object.entries(asMap(raw.environment, 'environment'))
        .filter(([, value]) => value !== undefined && value !== null)
        .map(([key, value]) => [key, String(value)]),
    ),
    mounts: ((raw.volumes as unknown[]) ?? []).flatMap((volume) => bindMount(volume, projectDir)),
    ports: ((raw.ports as unknown[]) ?? []).map((entry) => publishedPort(String(entry), name)),
    dependsOn: Object.fromEntries(
      Object.entries(asMap(raw.depends_on, 'depends_on')).map(([dependency, spec]) => [
        dependency,
        ((spec as { condition?: DependencyCondition } | undefined)?.condition ??
          'service_started') as DependencyCondition,
      ]),
    ),
    ...(raw.healthcheck ? { healthcheck: healthCheck(raw.healthcheck as Record<string, unknown>) } : {}),
    job: raw.restart === 'no',
  };
}

/** A command in list form as it is; a string split on spaces (this project writes lists). */
function commandArgs(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : String(value).split(/\s+/).filter(Boolean);
}

/** Bind mounts only: a named volume is the runner's own data folder, not a host path. */
function bindMount(volume: unknown, projectDir: string): Mount[] {
  let source: string;
  let target: string;
  let readOnly = false;
  if (typeof volume === 'string') {
    const [from, to, mode] = volume.split(':');
    if (!to) return [];
    [source, target, readOnly] = [from!, to, mode === 'ro'];
  } else {
    const long = volume as { type?: string; source?: string; target?: string; read_only?: boolean };
    if (long.type !== 'bind' || !long.source || !long.target) return [];
    [source, target, readOnly] = [long.source, long.target, long.read_only === true];
  }
  if (!/^[./~]/.test(source)) return []; // a named volume
  return [{ source: path.resolve(projectDir, source), target, readOnly }];
}

/** `[ip:]hostPort:containerPort` (the short syntax; the ip defaults to all interfaces, as compose's). */
function publishedPort(entry: string, service: string): PublishedPort {
  const m = /^(?:(\d{1,3}(?:\.\d{1,3}){3}):)?(\d+):(\d+)(?:\/tcp)?$/.exec(entry);
  if (!m) throw new Error(`${service}: ports entry ${JSON.stringify(entry)} is not [ip:]hostPort:containerPort`);
  return { hostIp: m[1] ?? '0.0.0.0', hostPort: Number(m[2]), containerPort: Number(m[3]) };
}

function healthCheck(raw: Record<string, unknown>): HealthCheck {
  const test = (raw.test as string[] | string) ?? [];
  const [kind, ...args] = Array.isArray(test) ? test : ['CMD-SHELL', test];
  return {
    command: kind === 'CMD-SHELL' ? ['sh', '-c', args.join(' ')] : args,
    intervalMs: durationMs(raw.interval, 30_000),
    timeoutMs: durationMs(raw.timeout, 30_000),
    retries: Number(raw.retries ?? 3),
    startPeriodMs: durationMs(raw.start_period, 0),
  };
}

/** A Compose duration (`30s`, `1m30s`, `1500ms`) in milliseconds. */
export function durationMs(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const text = String(value);
  const unitMs: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(us|ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== text) throw new Error(`not a duration: ${text}`);
  return parts.reduce((ms, [, amount, unit]) => ms + Number(amount) * unitMs[unit!]!, 0);
}
