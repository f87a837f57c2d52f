/**
 * The Temporal server compose runs, built from its Go module (there is no image registry here):
 * `go install go.temporal.io/server/cmd/server@v<version>` and its schema tool
 * `go.temporal.io/server/cmd/tools/sql`, at the version compose's `temporalio/server` image names.
 * The binaries and the module's `schema/` folder are kept in a cache folder per version, so the
 * build (about 20 minutes on 2 cores from nothing, a few with Go's own caches warm) happens once
 * per machine. A build goes to a temporary folder renamed into place when complete, so an
 * interrupted one leaves nothing that looks built; a lock folder keeps two builds from racing.
 *
 * Environment: DURABLE_MCP_CACHE_DIR (default $XDG_CACHE_HOME/durable-mcp or ~/.cache/durable-mcp),
 * TEMPORAL_GO_TOOLCHAIN (default go1.27.3: the toolchain the go command fetches from the module proxy).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DEFAULT_GO_TOOLCHAIN = 'go1.27.3';
const MODULE = 'go.temporal.io/server';
const STALE_LOCK_MS = 90 * 60_000;

export interface TemporalServerBuild {
  version: string;
  /** `temporal-server` (the image's binary name). */
  server: string;
  /** `temporal-sql-tool`, in a folder of its own to put on PATH. */
  sqlTool: string;
  /** The module's `schema/` folder (`postgresql/v12/temporal/versioned`, ...). */
  schemaDir: string;
}

export function cacheDir(): string {
  if (process.env.DURABLE_MCP_CACHE_DIR) return path.resolve(process.env.DURABLE_MCP_CACHE_DIR);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'durable-mcp');
}

/** The version in an image reference such as `temporalio/server:1.32.0`. */
export function imageVersion(image: string): string {
  const tag = /:([^:/@]+)$/.exec(image)?.[1];
  if (!tag || !/^\d+\.\d+\.\d+$/.test(tag)) throw new Error(`${image}: the native runner needs a release tag (x.y.z)`);
  return tag;
}

function layout(version: string, root = path.join(cacheDir(), `temporal-server-${version}`)): TemporalServerBuild {
  return {
    version,
    server: path.join(root, 'bin', 'temporal-server'),
    sqlTool: path.join(root, 'bin', 'temporal-sql-tool'),
    schemaDir: path.join(root, 'schema'),
  };
}

/** The build of `version` if it is in the cache. */
export function cachedTemporalServer(version: string): TemporalServerBuild | undefined {
  const build = layout(version);
  return [build.server, build.sqlTool, build.schemaDir].every((p) => existsSync(p)) ? build : undefined;
}

/** The build of `version`, building it first when the cache lacks it. */
export async function ensureTemporalServer(
  version: string,
  log: (line: string) => void = () => {},
): Promise<TemporalServerBuild> {
  const cached = cachedTemporalServer(version);
  if (cached) return cached;
  const root = path.join(cacheDir(), `temporal-server-${version}`);
  mkdirSync(path.dirname(root), { recursive: true });
  const lock = `${root}.lock`;
  await takeLock(lock, log);
  try {
    const again = cachedTemporalServer(version); // built by whoever held the lock
    if (again) return again;
    const staging = `${root}.building`;
    rmSync(staging, { recursive: true, force: true });
    const built = layout(version, staging);
    mkdirSync(path.dirname(built.server), { recursive: true });
    const toolchain = process.env.TEMPORAL_GO_TOOLCHAIN || DEFAULT_GO_TOOLCHAIN;
    log(
      `building Temporal server ${version} from ${MODULE} with ${toolchain} (once per machine; ~20 min on 2 cores from nothing)`,
    );
    const started = Date.now();
    const bin = path.dirname(built.server);
    await run(
      'go',
      ['install', `${MODULE}/cmd/server@v${version}`, `${MODULE}/cmd/tools/sql@v${version}`],
      {
        GOTOOLCHAIN: toolchain,
        GOBIN: bin,
        GOFLAGS: '-mod=mod',
      },
      log,
    );
    renameSync(path.join(bin, 'server'), built.server);
    renameSync(path.join(bin, 'sql'), built.sqlTool);
    cpSync(path.join(moduleDir(version, toolchain), 'schema'), built.schemaDir, { recursive: true });
    rmSync(root, { recursive: true, force: true });
    renameSync(staging, root);
    log(`built Temporal server ${version} in ${Math.round((Date.now() - started) / 1000)} s: ${root}`);
    return layout(version);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Where the go command keeps the module's source (downloaded by the build). */
function moduleDir(version: string, toolchain: string): string {
  const out = spawnSync('go', ['mod', 'download', '-json', `${MODULE}@v${version}`], {
    encoding: 'utf8',
    env: { ...process.env, GOTOOLCHAIN: toolchain },
  });
  const dir = out.status === 0 ? (JSON.parse(out.stdout) as { Dir?: string }).Dir : undefined;
  if (!dir) throw new Error(`go mod download ${MODULE}@v${version} failed: ${out.stderr}`);
  return dir;
}

async function takeLock(lock: string, log: (line: string) => void): Promise<void> {
  for (let waited = false; ; waited = true) {
    try {
      mkdirSync(lock);
      return;
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false });
      if (!held) continue; // released meanwhile
      if (Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else {
        if (!waited) log(`another build holds ${lock}: waiting for it`);
        await new Promise((resolve) => setTimeout(resolve, 5_000));
      }
    }
  }
}

/** Runs a command at low priority (the build must not starve what else runs), its output to `log`. */
function run(command: string, args: string[], env: Record<string, string>, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('nice', ['-n', '10', command, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4_000);
      for (const line of text.split('\n')) if (line.trim() && !line.startsWith('go: downloading')) log(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${tail}`)),
    );
  });
}
