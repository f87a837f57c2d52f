/**
 * A round's row as the exchange store reads it (`exchange_rounds`): the columns every read selects,
 * the row's type, its record, and the read of one round. Shared by the round reads, the round
 * record and the task store.
 */
import type { RoundOutcome } from '../exchange/types';
import type { RoundRecord } from '../exchange/types';

export interface RoundRow {
  exchange_id: string;
  round: number;
  outcome: RoundOutcome;
  answers_digest: string | null;
  recorded_at: Date;
  deadline_at: Date | null;
}

export const ROUND_COLUMNS = 'exchange_id, round, outcome, answers_digest, recorded_at, deadline_at';

/*
 * The statements every round makes (the API's insert and read of a leg, the round's start and its
 * record) are named, so each connection prepares them once: Postgres then parses and rewrites
 * them once per connection instead of once a run, and after five runs may keep one generic plan.
 * Their texts are constants; a name always means the same text.
 */

/** One round's row (`$1` the exchange, `$2` the round); prepared as `read-round`. */
export const READ_ROUND = `SELECT ${ROUND_COLUMNS} FROM exchange_rounds WHERE exchange_id = $1 AND round = $2`;

/** A round's row (ROUND_COLUMNS) as its record; the task store reads the same columns. */
export function toRecord(row: RoundRow): RoundRecord {
  return {
    exchangeId: row.exchange_id,
    round: row.round,
    outcome: row.outcome,
    answersDigest: row.answers_digest ?? undefined,
    recordedAt: row.recorded_at,
    ...(row.deadline_at ? { deadlineAt: row.deadline_at } : {}),
  };
}

/** `$from, $from + 1, …`: `count` placeholders. */
export const placeholders = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');
