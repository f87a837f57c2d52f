/**
 * What "every exchange reached exactly its expected outcome and nothing was lost" means, checked
 * against the client's replies, the service's record in Postgres and the worker logs.
 */
import type { RpcReply } from '../../support/raw-mcp';
import type { FaultStack } from './fault-stack';
import { greeting } from './modern-exchange';
import { rerunsAfterRecording, roundEvents, roundsWithoutStart } from './round-log';

export interface Greeted {
  exchangeId: string;
  name: string;
  reply: RpcReply;
}

/** Each client got "Hello, <name>!", and Postgres says round 1 asked, round 2 completed, status completed. */
export async function expectAllGreeted(stack: FaultStack, exchanges: Greeted[]): Promise<void> {
  const outcome = (reply: RpcReply) =>
    reply.body.error ? { error: reply.body.error } : { resultType: reply.body.result?.resultType, content: reply.body.result?.content };
  expect(exchanges.map((e) => ({ name: e.name, outcome: outcome(e.reply) }))).toEqual(
    exchanges.map((e) => ({ name: e.name, outcome: { resultType: 'complete', ...greeting(e.name) } })),
  );
  const ids = exchanges.map((e) => e.exchangeId);
  const statuses = await stack.query<{ id: string; status: string }>('SELECT id, status FROM exchanges WHERE id = ANY($1::uuid[])', [ids]);
  expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).toEqual(Object.fromEntries(ids.map((id) => [id, 'completed'])));
  const rounds = await stack.query<{ exchange_id: string; round: number; outcome_kind: string; outcome: { result?: unknown } }>(
    'SELECT exchange_id, round, outcome_kind, outcome FROM exchange_rounds WHERE exchange_id = ANY($1::uuid[]) ORDER BY exchange_id, round',
    [ids],
  );
  for (const { exchangeId, name } of exchanges) {
    const mine = rounds.filter((r) => r.exchange_id === exchangeId);
    expect({ exchangeId, rounds: mine.map((r) => [r.round, r.outcome_kind]) }).toEqual({ exchangeId, rounds: [[1, 'ask'], [2, 'complete']] });
    expect(JSON.stringify(mine[1]!.outcome)).toContain(`Hello, ${name}!`);
  }
}

/**
 * No handler ran again after its round was recorded, judged from the worker logs. The judgement
 * needs the `round started` line: a recorded round without one means the log contract is missing
 * and re-runs cannot be ruled out, which fails too (it would otherwise pass without evidence).
 */
export async function expectNoRerunAfterRecording(stack: FaultStack, exchangeIds: string[]): Promise<void> {
  const events = roundEvents(stack.workerLogs());
  expect(rerunsAfterRecording(events)).toEqual({});
  const recorded = await stack.query<{ exchange_id: string; round: number; outcome_kind: string; outcome: { error?: { code?: number } } }>(
    'SELECT exchange_id, round, outcome_kind, outcome FROM exchange_rounds WHERE exchange_id = ANY($1::uuid[])',
    [exchangeIds],
  );
  // Rounds the workflow records itself (expiry, cancel) run no handler.
  const handlerRounds = recorded.filter((r) => r.outcome_kind !== 'error' || ![-32001, -32012].includes(r.outcome.error?.code ?? 0));
  const missing = roundsWithoutStart(events, handlerRounds.map((r) => ({ exchangeId: r.exchange_id, round: r.round })));
  expect({ recordedRoundsWithoutRoundStartedLine: missing.length, of: handlerRounds.length }).toEqual({
    recordedRoundsWithoutRoundStartedLine: 0,
    of: handlerRounds.length,
  });
}
