/**
 * `durable-mcp dev` stopped as a user stops it, as an OS process on its own embedded Postgres and
 * Temporal dev server: a terminal's Ctrl-C (SIGINT to its process group), and a stop that reaches
 * every process of the stack at once, the embedded Postgres included (`docker stop`, a terminal or
 * a session closed), so Postgres ends the service's connections under it ("terminating connection
 * due to administrator command"). Either way it exits 0 and writes no stack trace; and a Ctrl-C
 * while the stack is still starting leaves no server of it running. While it runs, `durable-mcp
 * exchanges` run in another folder finds it (its port and its token) from the record it keeps.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../lib/paths';
import { until } from '../support/until';
import { spawnDev, type DevRun } from './dev-process';

const work = mkdtempSync(path.join(tmpdir(), 'dev-stop-'));
chmodSync(work, 0o755); // as root, the embedded Postgres runs as the user postgres, who must enter it
afterAll(() => rmSync(work, { recursive: true, force: true }));
const stateHome = path.join(work, 'state');
const elsewhere = path.join(work, 'elsewhere');
mkdirSync(elsewhere);

/**
 * `durable-mcp exchanges list` run in `cwd`, with no ADMIN_URL, ADMIN_TOKEN or PORT of its own.
 * Asynchronous: the dev process's output is read meanwhile, or it would wait on a full pipe.
 */
function exchangesList(cwd: string): Promise<{ status: number; stderr: string }> {
  // The project's tsconfig by its path too: from another folder tsx would not find it, and would
  // resolve the workspace packages to builds a fresh clone does not have.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_STATE_HOME: stateHome,
    TSX_TSCONFIG_PATH: path.join(projectRoot(), 'tsconfig.json'),
  };
  for (const name of ['ADMIN_URL', 'ADMIN_TOKEN', 'PORT'] as const) delete env[name];
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      // tsx by its path: the folder it runs in has no node_modules.
      [
        '--import',
        pathToFileURL(require.resolve('tsx')).href,
        path.join(projectRoot(), 'cli/main.ts'),
        'exchanges',
        'list',
      ],
      { cwd, env, timeout: 60_000 },
      (error, _stdout, stderr) =>
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }),
    ),
  );
}

/** A stack frame, in text or in a JSON log line's `stack` field. */
const STACK_FRAME = /(^|\\n|\n)\s+at .+(:\d+:\d+\)?|\(native\))/;

function startDev(dataDir: string): DevRun {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    TEMPORAL_DEV_PORT: '0',
    TEMPORAL_DEV_UI_PORT: '0',
    WORKER_METRICS_PORT: '0',
    // Where the stack records itself for `durable-mcp exchanges` (dev/dev-stack-record.ts): this test's own.
    XDG_STATE_HOME: stateHome,
  };
  return spawnDev(['--data-dir', dataDir], env);
}

const serving = (run: DevRun) =>
  until(
    'durable-mcp dev to serve',
    async () => {
      if (run.process.exitCode !== null) throw new Error(`durable-mcp dev exited:\n${run.output()}`);
      return run.output().includes('Ctrl-C stops everything') || undefined;
    },
    180_000,
  );

/** The processes whose command line names `dataDir` (the stack's Postgres and Temporal dev server). */
const serversOf = (dataDir: string) =>
  execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(dataDir) && !line.includes('cli/main.ts'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));

it('is found by durable-mcp exchanges from another folder while it runs, and stops on Ctrl-C with exit 0 and no stack trace', async () => {
  const run = startDev(path.join(work, 'ctrl-c'));
  await serving(run);
  // Its port was picked at start (PORT=0) and its token is in its data folder: exchanges finds both.
  const listed = await exchangesList(elsewhere);
  expect(listed.stderr).toBe('');
  expect(listed.status).toBe(0);
  process.kill(-run.process.pid!, 'SIGINT');
  expect(await run.exited).toBe(0);
  expect(run.output()).toContain('"msg":"stopped"');
  expect(run.output()).not.toMatch(STACK_FRAME);
  // Stopped, it is no longer what exchanges finds.
  expect((await exchangesList(elsewhere)).stderr).toContain('no admin token');
});

it('stops with no stack trace when the signal reaches its Postgres too, which ends the connections under the service', async () => {
  const dataDir = path.join(work, 'everything');
  const run = startDev(dataDir);
  await serving(run);
  const postgres = serversOf(dataDir).filter((pid) =>
    execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).includes('postgres'),
  );
  expect(postgres.length).toBeGreaterThan(0);
  for (const pid of postgres) process.kill(pid, 'SIGINT');
  // Postgres ends the service's connections before the service hears of the stop, as when it comes first.
  await until(
    'the service to see its connections ended',
    async () => /terminating connection due to administrator command/.test(run.output()) || undefined,
  );
  process.kill(-run.process.pid!, 'SIGINT');
  expect(await run.exited).toBe(0);
  expect(run.output()).not.toMatch(STACK_FRAME);
});

it('leaves no server running after a Ctrl-C while the stack starts', async () => {
  const dataDir = path.join(work, 'starting');
  const run = startDev(dataDir);
  await until('the Temporal dev server to be starting', async () => serversOf(dataDir).length > 0 || undefined, 60_000);
  process.kill(-run.process.pid!, 'SIGINT');
  await run.exited;
  await until('every server of the stack to be gone', async () => serversOf(dataDir).length === 0 || undefined, 15_000);
});
