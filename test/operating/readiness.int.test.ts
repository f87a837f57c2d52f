/**
 * Liveness and readiness against real dependencies. The service here runs on a Postgres of its
 * own (an OS process this file starts and stops), so stopping it leaves the Postgres every other
 * test file shares alone: /readyz goes 503 naming what failed (Postgres down, the newest
 * migration not applied) and /healthz stays 200, since restarting the API would cure neither.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationFiles } from '../../lib/db/migrate';
import { projectRoot } from '../../lib/paths';
import { startTestService, type TestService } from '../support/test-service';

interface OwnPostgres {
  url: string;
  stop(): Promise<void>;
}

/** A Postgres of this file's own, as scripts/postgres-process.ts runs it. */
function startOwnPostgres(dataDir: string): Promise<OwnPostgres> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(projectRoot(), 'scripts/postgres-process.ts'), dataDir, '0', 'ready_test', 'discard'],
    { cwd: projectRoot(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Postgres did not start:\n${output}`));
    }, 120_000);
    void exited.then(() => reject(new Error(`Postgres exited early:\n${output}`)));
    const keep = (chunk: Buffer) => {
      output += chunk;
      const ready = /postgres ready (\S+)/.exec(output);
      if (!ready) return;
      clearTimeout(timer);
      resolve({
        url: ready[1]!,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
          await exited;
          clearTimeout(force);
        },
      });
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
  });
}

async function get(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('GET /healthz and GET /readyz', () => {
  let dataDir: string;
  let postgres: OwnPostgres | undefined;
  let service: TestService;
  let base: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-ready-'));
    chmodSync(dataDir, 0o755); // an embedded Postgres runs as its own user when we are root
    postgres = await startOwnPostgres(path.join(dataDir, 'pg'));
    service = await startTestService({ DATABASE_URL: postgres.url, READY_CHECK_TIMEOUT_MS: '1500' });
    base = service.url.replace(/\/mcp$/, '');
  });
  afterAll(async () => {
    await service?.close().catch(() => undefined);
    await postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('are 200 while Postgres, Temporal and the schema are ready', async () => {
    expect(await get(`${base}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await get(`${base}/readyz`)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { postgres: 'ok', temporal: 'ok', migrations: 'ok' } },
    });
  });

  it('/readyz is 503 naming the migration while the newest one is not applied', async () => {
    const newest = (await migrationFiles()).at(-1)!;
    const { rows } = await service.pool.query<{ checksum: string }>(
      'DELETE FROM schema_migrations WHERE name = $1 RETURNING checksum',
      [newest],
    );
    try {
      const ready = await get(`${base}/readyz`);
      expect(ready).toEqual({
        status: 503,
        body: {
          status: 'unavailable',
          failed: ['migrations'],
          checks: { postgres: 'ok', temporal: 'ok', migrations: 'failed' },
        },
      });
      expect((await get(`${base}/healthz`)).status).toBe(200);
    } finally {
      await service.pool.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
        newest,
        rows[0]!.checksum,
      ]);
    }
    expect((await get(`${base}/readyz`)).status).toBe(200);
  });

  it('/readyz is 503 naming Postgres once it stops, while /healthz stays 200', async () => {
    await postgres!.stop();
    postgres = undefined;
    const ready = await get(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      status: 'unavailable',
      failed: ['postgres', 'migrations'],
      checks: { temporal: 'ok' },
    });
    // The public answer says only that it failed (or timed out), never the driver's error text.
    const checks = ready.body.checks as Record<string, string>;
    expect(['failed', 'timeout']).toContain(checks.postgres);
    expect(['failed', 'timeout']).toContain(checks.migrations);
    expect(await get(`${base}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
  });
});
