/**
 * The legacy store in Postgres, put together from its parts, one room per job: sessions
 * (legacy-sessions-pg.ts), calls (legacy-calls-pg.ts), their delivery leases
 * (legacy-leases-pg.ts), server-to-client requests (legacy-requests-pg.ts) and the streams' event
 * log with its pruning (legacy-stream-pg.ts).
 */
import type { Pool } from 'pg';
import { createLegacyCallsPg } from './legacy-calls-pg';
import { createLegacyLeasesPg } from './legacy-leases-pg';
import { createLegacyRequestsPg } from './legacy-requests-pg';
import { createLegacySessionsPg } from './legacy-sessions-pg';
import type { LegacyStore, LegacyStoreLimits } from './legacy-store';
import { createLegacyStreamPg } from './legacy-stream-pg';

export function createLegacyStorePg(pool: Pool, limits: LegacyStoreLimits): LegacyStore {
  return {
    ...createLegacySessionsPg(pool),
    ...createLegacyCallsPg(pool),
    ...createLegacyLeasesPg(pool),
    ...createLegacyRequestsPg(pool, limits.maxRepeatedAnswers),
    ...createLegacyStreamPg(pool, limits),
  };
}
