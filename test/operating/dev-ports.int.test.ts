/**
 * `durable-mcp dev` with ports another process holds, as a second dev stack meets them: the command
 * as an OS process refuses to start, with one line per held port naming it, what it is for and
 * the variable that moves it, and nothing else (no stack trace, nothing started).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';

const work = mkdtempSync(path.join(tmpdir(), 'dev-ports-'));
const held: Server[] = [];

async function hold(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  held.push(server);
  return (server.address() as { port: number }).port;
}

afterAll(async () => {
  await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(work, { recursive: true, force: true });
});

function dev(env: NodeJS.ProcessEnv) {
  const full: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'HANDLERS', 'HOST'] as const) delete full[name];
  return spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'dev', '--data-dir', path.join(work, 'data')], {
    cwd: projectRoot(),
    env: full,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

it('names each held port and the variable that moves it, in one line each, and starts nothing', async () => {
  const [api, metrics, ui] = [await hold(), await hold(), await hold()];
  const run = dev({ PORT: String(api), WORKER_METRICS_PORT: String(metrics), TEMPORAL_DEV_UI_PORT: String(ui) });
  expect(run.status).toBe(1);
  expect(run.stderr.trim().split('\n')).toEqual([
    `durable-mcp dev: port ${api} (the API and answer page) is in use by another process: set PORT to a free port (e.g. PORT=${api + 1} durable-mcp dev)`,
    `durable-mcp dev: port ${ui} (Temporal's Web UI) is in use by another process: set TEMPORAL_DEV_UI_PORT to a free port (e.g. TEMPORAL_DEV_UI_PORT=${ui + 1} durable-mcp dev)`,
    `durable-mcp dev: port ${metrics} (the worker's metrics) is in use by another process: set WORKER_METRICS_PORT to a free port, or 0 to turn it off (e.g. WORKER_METRICS_PORT=${metrics + 1} durable-mcp dev)`,
  ]);
  expect(run.stdout).not.toContain('starting');
});

it('names a held Postgres port (POSTGRES_DEV_PORT) the same way', async () => {
  const postgres = await hold();
  const run = dev({
    PORT: '0',
    WORKER_METRICS_PORT: '0',
    TEMPORAL_DEV_PORT: '0',
    TEMPORAL_DEV_UI_PORT: '0',
    POSTGRES_DEV_PORT: String(postgres),
  });
  expect(run.status).toBe(1);
  expect(run.stderr.trim()).toBe(
    `durable-mcp dev: port ${postgres} (the embedded Postgres) is in use by another process: set POSTGRES_DEV_PORT to a free port (e.g. POSTGRES_DEV_PORT=${postgres + 1} durable-mcp dev)`,
  );
});
