/** `npm run migrate`: applies pending SQL migrations to DATABASE_URL and lists what it applied. */
import { migrate } from '../lib/db/migrate';
import { createPool } from '../lib/db/pool';
import { createLogger } from '../lib/log';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    process.stderr.write('DATABASE_URL is missing: name the Postgres to migrate (postgres://user:pass@host:port/db)\n');
    process.exit(78);
  }
  const log = createLogger('migrate', process.env.LOG_LEVEL ?? 'info');
  const pool = createPool(url, 1, log);
  try {
    const applied = await migrate(pool, log);
    log.info({ applied }, applied.length ? 'migrations applied' : 'schema is up to date');
  } finally {
    await pool.end();
  }
}

main().catch((error) => {
  process.stderr.write(`migration failed: ${(error as Error).message}\n`);
  process.exit(1);
});
