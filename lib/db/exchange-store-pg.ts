/**
 * The exchange store in Postgres, put together from its parts, one room per job: exchange rows
 * and their running budgets (exchange-rows-pg.ts), a repeated call's join (exchange-joins-pg.ts), round reads and handler starts
 * (exchange-round-reads-pg.ts), a round's record (exchange-round-record-pg.ts) and a round's
 * handler notifications (exchange-events-pg.ts). What a round's row is lives in
 * exchange-round-rows.ts.
 */
import type { Pool } from 'pg';
import { createExchangeEventsPg } from './exchange-events-pg';
import { createRoundReadsPg } from './exchange-round-reads-pg';
import { createRoundRecordPg } from './exchange-round-record-pg';
import { createExchangeRowsPg } from './exchange-rows-pg';
import { createExchangeJoinsPg } from './exchange-joins-pg';
import type { ExchangeStore } from './exchange-store';

/**
 * `legacyStreamMaxEvents`: the cap of the legacy streams this store projects into.
 * `maxWaitingQuestionsPerPrincipal`: the questions one caller may have waiting when its asks are
 * recorded (MAX_WAITING_QUESTIONS_PER_PRINCIPAL; the worker's store, which records them, has it).
 */
export function createExchangeStorePg(
  pool: Pool,
  options: { legacyStreamMaxEvents?: number; maxWaitingQuestionsPerPrincipal?: number } = {},
): ExchangeStore {
  const legacyStreamMaxEvents = options.legacyStreamMaxEvents ?? 1000;
  return {
    ...createExchangeRowsPg(pool),
    ...createExchangeJoinsPg(pool),
    ...createRoundReadsPg(pool),
    ...createRoundRecordPg(pool, legacyStreamMaxEvents, options.maxWaitingQuestionsPerPrincipal),
    ...createExchangeEventsPg(pool, legacyStreamMaxEvents),
  };
}
