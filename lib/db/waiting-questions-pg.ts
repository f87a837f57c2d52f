/**
 * The budget of questions waiting for one caller (MAX_WAITING_QUESTIONS_PER_PRINCIPAL), applied in
 * the transaction that would record an addressed ask and its questions
 * (exchange-round-record-pg.ts): the caller's waiting questions are counted under a lock on the
 * caller (an advisory lock, held until the transaction ends), so two asks of one caller on two
 * workers are counted one after the other and cannot both take the last room. An ask without room
 * is recorded as the error that ends its exchange instead, and none of its questions is written.
 * The anonymous caller (AUTH_MODE=off) is every caller at once: only authenticated ones are counted.
 */
import type { PoolClient } from 'pg';
import { ANONYMOUS_PRINCIPAL_ID } from '../exchange/principal';
import type { ExchangeInput, RoundOutcome } from '../exchange/types';
import { waitingQuestionsExceeded } from '../protocol/exchange-errors';
import { addressedKeys } from '../questions/addressing';

/**
 * A question's caller as budgets and inboxes count callers: the person (or service) behind it
 * (`personId`), else, for a question recorded before that, its principal. Indexed
 * (migrations/0026).
 */
export const CALLER_KEY_SQL = `coalesce(caller->>'personId', caller->>'id')`;

/**
 * The outcome to record for an addressed ask of `exchange`'s round `round`: the ask itself while its
 * caller has room for its questions, else the error that ends the exchange. Takes the caller's lock.
 */
export async function withinWaitingBudget(
  client: PoolClient,
  exchange: Pick<ExchangeInput, 'exchangeId' | 'principal' | 'callerPersonId'>,
  round: number,
  ask: Extract<RoundOutcome, { kind: 'ask' }>,
  limit: number | undefined,
): Promise<RoundOutcome> {
  if (limit === undefined || exchange.principal === ANONYMOUS_PRINCIPAL_ID) return ask;
  const asked = addressedKeys(ask.inputRequests).length;
  // The person (or service) behind the caller, whatever client they call through: a person with
  // several MCP clients has one budget (CALLER_KEY_SQL reads the same key off a question).
  const caller = exchange.callerPersonId ?? exchange.principal;
  await client.query({
    name: 'lock-caller-questions',
    text: `SELECT pg_advisory_xact_lock(hashtext('questions_waiting'), hashtext($1))`,
    values: [caller],
  });
  // A statement after the lock sees every ask that held it before (READ COMMITTED: a snapshot per
  // statement). This exchange's own questions are left out: a retried record of this round finds
  // its round standing, whatever is decided here.
  const { rows } = await client.query<{ waiting: number }>({
    name: 'count-caller-questions',
    text: `SELECT count(*)::integer AS waiting FROM questions
            WHERE ${CALLER_KEY_SQL} = $1 AND status = 'waiting' AND deadline_at > now() AND exchange_id <> $2`,
    values: [caller, exchange.exchangeId],
  });
  const waiting = rows[0]!.waiting;
  if (waiting + asked <= limit) return ask;
  return { kind: 'error', error: waitingQuestionsExceeded(exchange.exchangeId, round, { limit, waiting, asked }) };
}
