/**
 * Applies `migrations/NNNN-*.sql` in order, each in its own transaction, and records what it
 * applied in `schema_migrations`. An advisory lock serializes replicas starting at once; a file
 * whose content changed after it was applied stops the run rather than drifting silently.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import type { Logger } from '../log';
import { projectRoot } from '../paths';

export const MIGRATIONS_DIR = path.join(projectRoot(), 'migrations');
const LOCK_ID = 0x6d6370; // arbitrary, stable: "mcp"

/** The migration files of `dir`, in the order they apply. */
export async function migrationFiles(dir = MIGRATIONS_DIR): Promise<string[]> {
  return (await readdir(dir)).filter((f) => /^\d{4}-[a-z0-9-]+\.sql$/.test(f)).sort();
}

/**
 * Resolves when the newest of `files` is applied (readiness: this process's code expects that
 * schema); rejects naming it otherwise, or when Postgres has no migration record at all.
 */
export async function checkMigrationsCurrent(pool: Pool, files: ReadonlyArray<string>): Promise<void> {
  const newest = files.at(-1);
  if (newest === undefined) return;
  // Without a schema_migrations table this fails too, naming the missing relation.
  const { rows } = await pool.query<{ applied: boolean }>({
    text: 'SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE name = $1) AS applied',
    values: [newest],
  });
  if (!rows[0]?.applied) throw new Error(`migration ${newest} is not applied`);
}

export async function migrate(pool: Pool, log: Logger, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = await migrationFiles(dir);
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const applied = new Map(
      (await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations')).rows.map(
        (r) => [r.name, r.checksum],
      ),
    );
    const ran: string[] = [];
    for (const file of files) {
      const sql = await readFile(path.join(dir, file), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const previous = applied.get(file);
      if (previous !== undefined) {
        if (previous !== checksum) throw new Error(`migration ${file} changed after it was applied`);
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [file, checksum]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(error as Error).message}`);
      }
      log.info({ migration: file }, 'migration applied');
      ran.push(file);
    }
    return ran;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => undefined);
    client.release();
  }
}
