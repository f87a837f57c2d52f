/**
 * Migrations that move data, against the real Postgres: each runs on a schema of its own, migrated
 * up to the one before it and given rows as the earlier code wrote them.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { migrate, MIGRATIONS_DIR } from '../../lib/db/migrate';
import { OPEN_REQUESTS_OF_SESSION_SQL } from '../../lib/db/legacy-requests-pg';
import { createLogger } from '../../lib/log';
import { readStackInfo } from '../support/stack-info';

const log = createLogger('test', 'silent');

/** A directory holding the migrations before `name` (and `name` itself once `through` is set). */
function migrationsUpTo(name: string, dir: string, through = false): string {
  for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'))) {
    if (file < name || (through && file === name)) copyFileSync(path.join(MIGRATIONS_DIR, file), path.join(dir, file));
  }
  return dir;
}

/** A schema of its own, its pool searching it first, dropped after the file's tests. */
function scratchSchema() {
  const schema = `migration_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const state: { admin?: Pool; pool?: Pool } = {};
  beforeAll(async () => {
    const { databaseUrl } = readStackInfo();
    state.admin = new Pool({ connectionString: databaseUrl, max: 1 });
    await state.admin.query(`CREATE SCHEMA ${schema}`);
    state.pool = new Pool({ connectionString: databaseUrl, max: 2, options: `-c search_path=${schema}` });
  });
  afterAll(async () => {
    await state.pool?.end();
    await state.admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await state.admin?.end();
  });
  return { pool: () => state.pool! };
}

describe('0013-name-stream-event-requests', () => {
  const scratch = scratchSchema();

  it('backfills the request each existing stream event carries, and the open-requests lookup finds it', async () => {
    const pool = scratch.pool();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-migrations-'));
    await migrate(pool, log, migrationsUpTo('0013-name-stream-event-requests.sql', dir));

    const requestId = `mcp-srq:${randomUUID()}:1:bmFtZQ`;
    await pool.query(
      `INSERT INTO legacy_sessions (id, transport, protocol_version, client_capabilities, principal)
       VALUES ('s1', 'streamable-http', '2025-11-25', '{}', 'anonymous')`,
    );
    await pool.query(
      `INSERT INTO legacy_open_requests (id, session_id, exchange_id, round, key, message)
       VALUES ($1, 's1', $2, 1, 'name', '{}')`,
      [requestId, randomUUID()],
    );
    // Keys as the legacy projection wrote them before the column existed.
    for (const key of [`request:${requestId}`, `cancel:${requestId}`, 'event:7', 'prime'])
      await pool.query(
        `INSERT INTO legacy_stream_events (session_id, stream_id, message_key, message) VALUES ('s1', 'call:x', $1, '{}')`,
        [key],
      );

    expect(await migrate(pool, log, migrationsUpTo('0013-name-stream-event-requests.sql', dir, true))).toEqual([
      '0013-name-stream-event-requests.sql',
    ]);
    const { rows } = await pool.query<{ message_key: string; server_request_id: string | null; id: string }>(
      'SELECT id, message_key, server_request_id FROM legacy_stream_events ORDER BY id',
    );
    expect(rows.map((r) => [r.message_key.split(':')[0], r.server_request_id])).toEqual([
      ['request', requestId],
      ['cancel', null],
      ['event', null],
      ['prime', null],
    ]);
    const open = await pool.query<{ id: string; event_id: string }>(OPEN_REQUESTS_OF_SESSION_SQL, ['s1']);
    expect(open.rows.map((r) => [r.id, r.event_id])).toEqual([[requestId, rows[0]!.id]]);
  });
});

describe('0015-count-running-exchanges', () => {
  const scratch = scratchSchema();
  const insert = (pool: Pool, status: string, id = randomUUID()) =>
    pool
      .query(
        `INSERT INTO exchanges (id, workflow_id, era, method, target, request_digest, principal, status)
         VALUES ($1, $2, 'modern', 'tools/call', 't', 'd', 'anonymous', $3)`,
        [id, `exchange-${id}`, status],
      )
      .then(() => id);
  const counted = async (pool: Pool) =>
    Number((await pool.query<{ n: string }>('SELECT sum(running) AS n FROM exchange_running_counts')).rows[0]!.n);

  it('counts the exchanges running when it applies, and every opening, ending and removal after it', async () => {
    const pool = scratch.pool();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-migrations-'));
    await migrate(pool, log, migrationsUpTo('0015-count-running-exchanges.sql', dir));
    const running = await Promise.all(Array.from({ length: 20 }, () => insert(pool, 'running')));
    await insert(pool, 'completed');
    await insert(pool, 'expired');

    expect(await migrate(pool, log, migrationsUpTo('0015-count-running-exchanges.sql', dir, true))).toEqual([
      '0015-count-running-exchanges.sql',
    ]);
    const { rows } = await pool.query<{ slots: string }>('SELECT count(*) AS slots FROM exchange_running_counts');
    expect(Number(rows[0]!.slots)).toBe(16);
    expect(await counted(pool)).toBe(20);

    await insert(pool, 'running');
    await pool.query("UPDATE exchanges SET status = 'completed' WHERE id = ANY($1)", [running.slice(0, 5)]);
    await pool.query("UPDATE exchanges SET updated_at = now() WHERE status = 'running'"); // no status change
    await pool.query('DELETE FROM exchanges WHERE id = ANY($1)', [running.slice(5, 8)]);
    await pool.query("DELETE FROM exchanges WHERE status = 'completed'");
    expect(await counted(pool)).toBe(20 + 1 - 5 - 3);
    const actual = await pool.query<{ n: string }>("SELECT count(*) AS n FROM exchanges WHERE status = 'running'");
    expect(await counted(pool)).toBe(Number(actual.rows[0]!.n));
    await pool.query('TRUNCATE exchanges CASCADE');
    expect(await counted(pool)).toBe(0);
  });
});

describe('0016-stop-writing-request-digests', () => {
  const scratch = scratchSchema();

  it('takes exchange rows without a request digest, and still takes them with one (an earlier release beside this one)', async () => {
    const pool = scratch.pool();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-migrations-'));
    await migrate(pool, log, migrationsUpTo('0016-stop-writing-request-digests.sql', dir, true));
    const [withDigest, without] = [randomUUID(), randomUUID()];
    await pool.query(
      `INSERT INTO exchanges (id, workflow_id, era, method, target, request_digest, principal, status)
       VALUES ($1, $2, 'modern', 'tools/call', 't', 'd', 'anonymous', 'running')`,
      [withDigest, `exchange-${withDigest}`],
    );
    await pool.query(
      `INSERT INTO exchanges (id, workflow_id, era, method, target, principal, status)
       VALUES ($1, $2, 'modern', 'tools/call', 't', 'anonymous', 'running')`,
      [without, `exchange-${without}`],
    );
    const { rows } = await pool.query<{ id: string; request_digest: string | null }>(
      'SELECT id, request_digest FROM exchanges ORDER BY request_digest NULLS LAST',
    );
    expect(rows).toEqual([
      { id: withDigest, request_digest: 'd' },
      { id: without, request_digest: null },
    ]);
  });
});

describe('0019-record-handler-versions', () => {
  const scratch = scratchSchema();

  it('leaves the rows before it without a version, and takes rows with one and, from an earlier release beside it, without', async () => {
    const pool = scratch.pool();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-migrations-'));
    const insert = (id: string, version?: string) =>
      version === undefined
        ? pool.query(
            `INSERT INTO exchanges (id, workflow_id, era, method, target, principal, status)
             VALUES ($1, $2, 'modern', 'tools/call', 't', 'anonymous', 'running')`,
            [id, `exchange-${id}`],
          )
        : pool.query(
            `INSERT INTO exchanges (id, workflow_id, era, method, target, principal, status, handler_version)
             VALUES ($1, $2, 'modern', 'tools/call', 't', 'anonymous', 'running', $3)`,
            [id, `exchange-${id}`, version],
          );
    await migrate(pool, log, migrationsUpTo('0019-record-handler-versions.sql', dir));
    const [before, versioned, unversioned] = [randomUUID(), randomUUID(), randomUUID()];
    await insert(before);

    expect(await migrate(pool, log, migrationsUpTo('0019-record-handler-versions.sql', dir, true))).toEqual([
      '0019-record-handler-versions.sql',
    ]);
    await insert(versioned, 'acme-tools@1.2.0');
    await insert(unversioned);
    const { rows } = await pool.query<{ id: string; handler_version: string | null }>(
      'SELECT id, handler_version FROM exchanges',
    );
    expect(new Map(rows.map((row) => [row.id, row.handler_version]))).toEqual(
      new Map([
        [before, null],
        [versioned, 'acme-tools@1.2.0'],
        [unversioned, null],
      ]),
    );
  });
});
