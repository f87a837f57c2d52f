/**
 * What a production install of durable-mcp weighs and how fast its API starts, for installs side
 * by side (e.g. a release before and after a change):
 *
 *   npm run bench:start-time -- --installs /tmp/before,/tmp/after [--runs 9] [--handlers demo]
 *
 * Each install is a folder where `npm install --omit=dev` put `durable-mcp` (and
 * `@durable-mcp/handlers`) in node_modules. One local stack (Temporal dev server, embedded Postgres)
 * serves every run; the installs take turns, run by run, so a noisy moment lands on all of them.
 * A run is the time from spawning `durable-mcp start api` to its first `GET /healthz` 200 (modules
 * loaded, config read, migrations checked, Temporal and Postgres connected), then it is stopped.
 * Printed: each install's size on disk, and the median, min and max start, and its ratio to the
 * first install's median.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { devServiceEnvironment } from '../cli/dev/dev-environment';
import { freePort } from '../cli/dev/local-stack/free-port';
import { startLocalStack } from '../cli/dev/local-stack/local-stack';
import { createLogger } from '../lib/log';
import { integerOption, parseFlags } from './flags';
import { percentile } from './stats';

const args = parseFlags(process.argv.slice(2), [], ['installs', 'runs', 'handlers']);
const installs = (args.get('installs') ?? '').split(',').filter(Boolean);
if (installs.length === 0) throw new Error('--installs needs the folders to compare, comma-separated');
const runs = integerOption(args, process.env)('runs', 'BENCH_RUNS', 9, 1);
const handlers = args.get('handlers') ?? 'demo';

const megabytes = (folder: string) =>
  Number(execFileSync('du', ['-sk', path.join(folder, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]) / 1024;

/** The installed package's CLI, as its package.json names it (the file moved between releases). */
function cliOf(install: string): string {
  const pkg = path.join(install, 'node_modules', 'durable-mcp');
  const bin = (JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
  return path.join(pkg, bin['durable-mcp']!);
}

async function startOnce(install: string, env: NodeJS.ProcessEnv): Promise<number> {
  const port = await freePort();
  const cli = cliOf(install);
  const began = performance.now();
  const api = spawn(process.execPath, [cli, 'start', 'api'], {
    cwd: install,
    env: { ...env, PORT: String(port), HANDLERS: handlers, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  api.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  try {
    for (;;) {
      if (api.exitCode !== null) throw new Error(`${install}: the API exited (${api.exitCode}): ${errors}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - began;
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    const exited = new Promise((resolve) => api.once('exit', resolve));
    api.kill('SIGTERM');
    await exited;
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'durable-mcp-start-time-'));
  chmodSync(dataDir, 0o755); // as root, the embedded Postgres runs as another user, who must enter it
  const log = createLogger('bench', 'warn');
  const local = await startLocalStack({ dataDir, database: 'mcp', persistent: false });
  try {
    const env = devServiceEnvironment(dataDir, local, log, { ...process.env, NODE_ENV: 'production' });
    await startOnce(installs[0]!, env); // applies the migrations once, outside the figures
    const times = new Map(installs.map((install) => [install, [] as number[]]));
    for (let run = 0; run < runs; run++)
      for (const install of installs) times.get(install)!.push(await startOnce(install, env));
    const medianOf = (install: string) =>
      percentile(
        [...times.get(install)!].sort((a, b) => a - b),
        50,
      );
    const base = medianOf(installs[0]!);
    console.log(`API start to first /healthz 200, HANDLERS=${handlers}, ${runs} runs each, interleaved`);
    console.log('install                              size MB   median ms   min ms   max ms   ratio');
    for (const install of installs) {
      const sorted = [...times.get(install)!].sort((a, b) => a - b);
      const median = medianOf(install);
      console.log(
        `${install.padEnd(36)} ${megabytes(install).toFixed(0).padStart(7)}   ${median.toFixed(0).padStart(9)}   ${sorted[0]!
          .toFixed(0)
          .padStart(6)}   ${sorted.at(-1)!.toFixed(0).padStart(6)}   ${(median / base).toFixed(2)}`,
      );
    }
  } finally {
    await local.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).stack ?? error);
  process.exit(1);
});
