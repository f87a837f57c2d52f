/**
 * What each image of docker-compose.yml is on this host: the program it runs, the folders it puts
 * on PATH, the environment it sets, and its working folder. The service's own settings (command,
 * entrypoint, environment, mounts) come from the compose file; only what the image itself holds
 * is written here, one entry per image.
 *
 * - `postgres`: Debian's Postgres, as the image's entrypoint drives it (postgres-image.ts).
 * - `temporalio/server`: the server built from its Go module at the image's version
 *   (temporal-server-build.ts), started as the image's entrypoint starts it (`temporal-server
 *   start`, configured by its embedded config template from the environment), in the image's
 *   working folder /etc/temporal, whose mounted subfolders are linked in.
 * - `temporalio/admin-tools`: the compose job's own entrypoint, with that build's
 *   `temporal-sql-tool`, its schema (SCHEMA_DIR) and the `temporal` CLI on PATH.
 * - an image built from this project (`build: .`), or a service's `image:` that another service
 *   builds from it (compose runs the image it built): node (this process's) in /app, which is the
 *   build context.
 * - `temporalio/ui`: not run (no native build of the UI here).
 */
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { ComposeService, Mount } from './compose-project';
import type { PlacedService } from './native-placement';
import type { TemporalServerBuild } from './temporal-server-build';

export type NativeLaunch =
  | { kind: 'process'; command: string; args: string[]; cwd: string; env: Record<string, string> }
  | { kind: 'postgres'; port: number; serverArgs: string[]; initScripts?: string; env: Record<string, string> }
  | { kind: 'not-run'; reason: string };

export interface ImageContext {
  temporal: TemporalServerBuild;
  /** The `temporal` CLI's folder (admin-tools' namespace job uses it). */
  temporalCliDir: string;
  /** A folder of the service's own, for what stands in for its container's filesystem. */
  serviceDir: string;
}

/** The image's working folder of a project-built image: the Dockerfile's WORKDIR. */
const APP_DIR = '/app';
const POSTGRES_PORT = 5432;
const TEMPORAL_WORKDIR = '/etc/temporal';

const imageName = (image: string) => image.replace(/[:@].*$/, '');

/**
 * A service whose `image:` another service builds runs that build, as compose runs it: it pulls no
 * image that a service of the project builds (`docker compose up` builds it first).
 */
export function withProjectImages(services: Record<string, ComposeService>): Record<string, ComposeService> {
  const builds = new Map(
    Object.values(services).flatMap((s) => (s.build && s.image ? [[s.image, s.build] as const] : [])),
  );
  return Object.fromEntries(
    Object.entries(services).map(([name, service]) => {
      const build = !service.build && service.image ? builds.get(service.image) : undefined;
      return [name, build ? { ...service, build } : service];
    }),
  );
}

/** A service built from this project sees the build context at /app: a mount the image implies. */
export function withImageMounts(service: ComposeService): ComposeService {
  if (!service.build) return service;
  const implied: Mount = { source: service.build.context, target: APP_DIR, readOnly: false };
  return { ...service, mounts: [...service.mounts, implied] };
}

/** Which Temporal server version the compose file runs: its `temporalio/server` image's tag. */
export function temporalImage(services: Record<string, ComposeService>): string | undefined {
  return Object.values(services).find((s) => s.image && imageName(s.image) === 'temporalio/server')?.image;
}

export function nativeLaunch(service: PlacedService, context: ImageContext): NativeLaunch {
  const base = { HOME: process.env.HOME ?? '/root', LANG: 'C.UTF-8', TMPDIR: process.env.TMPDIR ?? '/tmp' };
  const systemPath = process.env.PATH ?? '/usr/bin:/bin';
  if (service.build) {
    const [program, ...args] = service.command ?? [];
    if (!program) return { kind: 'not-run', reason: 'no command' };
    const nodeDir = path.dirname(process.execPath);
    return {
      kind: 'process',
      command: program === 'node' ? process.execPath : program,
      args,
      cwd: service.build.context,
      env: { ...base, PATH: `${nodeDir}:${systemPath}`, ...service.environment },
    };
  }
  const image = imageName(service.image ?? '');
  switch (image) {
    case 'postgres': {
      const [program, ...serverArgs] = service.command ?? ['postgres'];
      if (program !== 'postgres')
        return { kind: 'not-run', reason: `a postgres command other than postgres: ${program}` };
      const init = service.mounts.find((m) => m.target === '/docker-entrypoint-initdb.d');
      return {
        kind: 'postgres',
        port: POSTGRES_PORT,
        serverArgs,
        ...(init ? { initScripts: init.source } : {}),
        env: service.environment,
      };
    }
    case 'temporalio/server':
      return {
        kind: 'process',
        command: context.temporal.server,
        args: ['start'],
        cwd: containerFolder(service, TEMPORAL_WORKDIR, context.serviceDir),
        env: { ...base, PATH: systemPath, BIND_ON_IP: service.address, ...service.environment },
      };
    case 'temporalio/admin-tools': {
      const [program, ...args] = [...(service.entrypoint ?? []), ...(service.command ?? [])];
      if (!program) return { kind: 'not-run', reason: 'no entrypoint' };
      return {
        kind: 'process',
        command: program,
        args,
        cwd: context.serviceDir,
        env: {
          ...base,
          PATH: `${path.dirname(context.temporal.sqlTool)}:${context.temporalCliDir}:${systemPath}`,
          SCHEMA_DIR: path.join(context.temporal.schemaDir, 'postgresql', 'v12'),
          ...service.environment,
        },
      };
    }
    case 'temporalio/ui':
      return { kind: 'not-run', reason: 'the Web UI has no native build here' };
    default:
      return { kind: 'not-run', reason: `no native form of image ${service.image ?? '(none)'}` };
  }
}

/**
 * `workdir` as a folder of the service's own, with each mount below it linked in, so a path the
 * service names relative to its working folder (DYNAMIC_CONFIG_FILE_PATH) reaches the mount.
 */
function containerFolder(service: PlacedService, workdir: string, serviceDir: string): string {
  const root = path.join(serviceDir, 'root');
  rmSync(root, { recursive: true, force: true });
  const cwd = path.join(root, workdir);
  mkdirSync(cwd, { recursive: true });
  for (const mount of service.mounts) {
    if (!mount.target.startsWith(`${workdir}/`)) continue;
    const link = path.join(root, mount.target);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(mount.source, link);
  }
  return cwd;
}
