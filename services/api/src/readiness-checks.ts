/**
 * What `GET /readyz` checks for this API (routes/health.ts answers it): Postgres answers, Temporal
 * answers its health check within the check's deadline, and the newest migration file is applied.
 */
import type { Connection } from '@temporalio/client';
import type { Pool } from 'pg';
import { checkMigrationsCurrent } from '../../../lib/db/migrate';
import type { ReadinessCheck } from './routes/health';

export function readinessChecks(
  pool: Pool,
  connection: Connection,
  /** The migration files this release holds (`migrationFiles`), the newest of which must be applied. */
  migrations: string[],
  checkTimeoutMs: number,
): ReadinessCheck[] {
  return [
    { name: 'postgres', check: async () => void (await pool.query('SELECT 1')) },
    {
      name: 'temporal',
      // With a deadline, so a server that stops answering does not leave calls piling up.
      check: () =>
        connection.withDeadline(Date.now() + checkTimeoutMs, async () => {
          await connection.healthService.check({});
        }),
    },
    { name: 'migrations', check: () => checkMigrationsCurrent(pool, migrations) },
  ];
}
