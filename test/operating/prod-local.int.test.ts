/**
 * `npm run prod:local`, the production topology as local processes (built API and worker from
 * dist/, a Temporal server on a database file, Postgres), runs an exchange end to end with the
 * official client and stops every process it started on SIGTERM. Its own Temporal and Postgres:
 * the shared ones of the other integration tests are not used.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';
import { connectModernClient } from '../support/modern-client';
import { TEST_KEY_RINGS } from '../support/test-service';

const ROOT = projectRoot();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm run prod:local', () => {
  let dataDir: string;
  let stack: ChildProcess;
  let output = '';
  let url: string;
  let pids: number[] = [];

  beforeAll(async () => {
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed: ${build.stdout}${build.stderr}`);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-prod-local-'));
    chmodSync(dataDir, 0o755); // as root, the embedded Postgres runs as a `postgres` user that must reach it
    stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/prod-local.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        STACK_DATA_DIR: dataDir,
        STACK_PERSISTENT: 'false',
        // Picked by the stack at start: a Temporal port taken before it is bound is picked again.
        PORT: '0',
        TEMPORAL_DEV_PORT: '0',
        TEMPORAL_DEV_UI_PORT: '0',
        ...TEST_KEY_RINGS,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stack.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    stack.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 150_000;
    while (!/Ctrl-C stops everything/.test(output)) {
      if (stack.exitCode !== null) throw new Error(`prod:local exited ${stack.exitCode}: ${output}`);
      if (Date.now() > deadline) throw new Error(`prod:local did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    url = /MCP endpoint\s+(\S+)/.exec(output)![1]!;
    pids = [...output.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
  }, 300_000);

  afterAll(() => {
    if (stack?.exitCode === null) stack.kill('SIGKILL');
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the API and the worker as two processes from dist/', () => {
    expect(pids).toHaveLength(2);
    expect(pids.every(alive)).toBe(true);
    expect(new Set(pids).size).toBe(2);
  });

  it('completes an exchange end to end with the official 2026-07-28 client', async () => {
    const client = await connectModernClient(url, () => ({ action: 'accept', content: { name: 'Ada' } }));
    try {
      const result = await client.callTool({ name: 'greet', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    } finally {
      await client.close();
    }
  });

  it('stops every process it started on SIGTERM and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => stack.once('exit', (code) => resolve(code)));
    stack.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
  }, 60_000);
});
