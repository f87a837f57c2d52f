/**
 * What "every exchange reached exactly its expected outcome and nothing was lost" means, checked
 * against the client's replies, the service's record in Postgres and the worker logs.
 */
import type { RpcReply } from '../../support/raw-mcp';
import { workflowIdFor } from '../../../lib/exchange-client/workflow-messages';
import type { FaultStack } from './fault-stack';
import { greeting } from './modern-exchange';
import { rerunsAfterRecording, roundEvents, roundsWithoutStart } from './round-log';
import { describeExchangeWorkflow } from './temporal-probe';
import { waitFor } from './wait-for';

export interface Greeted {
  exchangeId: string;
  name: string;
  reply: RpcReply;
}

/**
 * Each client got "Hello, <name>!", and Postgres says round 1 asked, round 2 completed with that
 * greeting, status completed. Postgres is given a minute to settle first (a client can get its
 * answer before a round that was retried is recorded), and everything is compared in one object,
 * so a failure shows each exchange's reply next to the service's record of it.
 */
export async function expectAllGreeted(stack: FaultStack, exchanges: Greeted[]): Promise<void> {
  const ids = exchanges.map((e) => e.exchangeId);
  const running = async () =>
    (
      await stack.query<{ n: string }>(
        "SELECT count(*) AS n FROM exchanges WHERE id = ANY($1::uuid[]) AND status = 'running'",
        [ids],
      )
    )[0]!.n;
  await waitFor('every exchange to leave status running', async () => (await running()) === '0', {
    timeoutMs: 60_000,
    intervalMs: 500,
  }).catch(() => undefined);

  const statuses = await stack.query<{ id: string; status: string }>(
    'SELECT id, status FROM exchanges WHERE id = ANY($1::uuid[])',
    [ids],
  );
  const rounds = await stack.query<{ exchange_id: string; round: number; outcome_kind: string; outcome: unknown }>(
    'SELECT exchange_id, round, outcome_kind, outcome FROM exchange_rounds WHERE exchange_id = ANY($1::uuid[]) ORDER BY exchange_id, round',
    [ids],
  );
  const outcome = (reply: RpcReply) =>
    reply.body.error
      ? { error: reply.body.error }
      : { resultType: reply.body.result?.resultType, content: reply.body.result?.content };
  const actual = exchanges.map(({ exchangeId, name, reply }) => {
    const mine = rounds.filter((r) => r.exchange_id === exchangeId);
    return {
      name,
      reply: outcome(reply),
      status: statuses.find((r) => r.id === exchangeId)?.status,
      rounds: mine.map((r) => [r.round, r.outcome_kind]),
      greetingRecorded: JSON.stringify(mine[1]?.outcome ?? null).includes(`Hello, ${name}!`),
    };
  });
  expect(actual).toEqual(
    exchanges.map(({ name }) => ({
      name,
      reply: { resultType: 'complete', ...greeting(name) },
      status: 'completed',
      rounds: [
        [1, 'ask'],
        [2, 'complete'],
      ],
      greetingRecorded: true,
    })),
  );
}

/**
 * No handler ran again after its round was recorded, judged from the worker logs. The judgement
 * needs the `round started` line: a recorded round without one means the log contract is missing
 * and re-runs cannot be ruled out, which fails too (it would otherwise pass without evidence).
 */
export async function expectNoRerunAfterRecording(stack: FaultStack, exchangeIds: string[]): Promise<void> {
  const events = roundEvents(stack.workerLogs());
  expect(rerunsAfterRecording(events)).toEqual({});
  const recorded = await stack.query<{
    exchange_id: string;
    round: number;
    outcome_kind: string;
    outcome: { error?: { code?: number } };
  }>('SELECT exchange_id, round, outcome_kind, outcome FROM exchange_rounds WHERE exchange_id = ANY($1::uuid[])', [
    exchangeIds,
  ]);
  // Rounds the workflow records itself (expiry, cancel) run no handler.
  const handlerRounds = recorded.filter(
    (r) => r.outcome_kind !== 'error' || ![-32001, -32012].includes(r.outcome.error?.code ?? 0),
  );
  const missing = roundsWithoutStart(
    events,
    handlerRounds.map((r) => ({ exchangeId: r.exchange_id, round: r.round })),
  );
  expect({ recordedRoundsWithoutRoundStartedLine: missing.length, of: handlerRounds.length }).toEqual({
    recordedRoundsWithoutRoundStartedLine: 0,
    of: handlerRounds.length,
  });
}

/** How one exchange must have ended, as its client, Postgres and Temporal each tell it. */
export interface ExpectedEnding {
  /** The client's final reply: a result with this text, or a JSON-RPC error with this code. */
  client: { text: string } | { errorCode: number };
  /** `exchanges.status`, and the ExchangeStatus search attribute. */
  status: string;
  /** `exchange_rounds` as [round, outcome_kind], in order; the last is ExchangeRound. */
  rounds: ReadonlyArray<readonly [number, string]>;
}

type Reply = RpcReply | { body: { error?: { code: number }; result?: Record<string, unknown> } };

/**
 * The client's reply, Postgres (the exchange's status, its rounds, the final round's record) and
 * Temporal (the workflow closed, its ExchangeStatus and ExchangeRound) agree with `expected`, and
 * no recorded round ran its handler again (`expectNoRerunAfterRecording`). Both are given time to
 * settle first (a client can hold its answer before the workflow closes), and everything is
 * compared in one object, so a failure shows every view side by side.
 */
export async function expectEnded(
  stack: FaultStack,
  exchangeId: string,
  reply: Reply,
  expected: ExpectedEnding,
): Promise<void> {
  await expectAllEnded(stack, [{ exchangeId, reply, expected }]);
}

/** `expectEnded` for many exchanges at once, in one comparison (each labelled by its exchange). */
export async function expectAllEnded(
  stack: FaultStack,
  exchanges: Array<{ exchangeId: string; reply: Reply; expected: ExpectedEnding }>,
): Promise<void> {
  const ids = exchanges.map((e) => e.exchangeId);
  await waitFor(
    'the exchanges to be recorded as ended and their workflows to close',
    async () => {
      const running = await stack.query<{ n: string }>(
        "SELECT count(*) AS n FROM exchanges WHERE id = ANY($1::uuid[]) AND status = 'running'",
        [ids],
      );
      if (running[0]!.n !== '0') return false;
      for (const id of ids)
        if ((await describeExchangeWorkflow(stack, workflowIdFor(id))).status === 'RUNNING') return false;
      return true;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  ).catch(() => undefined);
  const actual = [];
  for (const { exchangeId, reply } of exchanges)
    actual.push({ exchangeId, ...(await endingView(stack, exchangeId, reply)) });
  expect(actual).toEqual(exchanges.map(({ exchangeId, expected }) => ({ exchangeId, ...expectedView(expected) })));
  await expectNoRerunAfterRecording(stack, ids);
}

async function endingView(stack: FaultStack, exchangeId: string, reply: Reply) {
  const [row] = await stack.query<{ status: string }>('SELECT status FROM exchanges WHERE id = $1', [exchangeId]);
  const rounds = await stack.query<{ round: number; outcome_kind: string; outcome: unknown }>(
    'SELECT round, outcome_kind, outcome FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round',
    [exchangeId],
  );
  const body = reply.body;
  const text = (body.result?.content as Array<{ text?: string }> | undefined)?.map((c) => c.text).join(' ');
  return {
    // A task's result carries no resultType; any other reply must be a final one.
    client: body.error ? { errorCode: body.error.code } : { text, resultType: body.result?.resultType ?? 'complete' },
    postgres: {
      status: row?.status,
      rounds: rounds.map((r) => [r.round, r.outcome_kind]),
      // The final round's record holds what the client got.
      lastRecord: JSON.stringify(rounds.at(-1)?.outcome ?? null),
    },
    temporal: await describeExchangeWorkflow(stack, workflowIdFor(exchangeId)),
  };
}

function expectedView(expected: ExpectedEnding) {
  const { client } = expected;
  return {
    client: 'text' in client ? { text: client.text, resultType: 'complete' } : client,
    postgres: {
      status: expected.status,
      rounds: expected.rounds.map((r) => [...r]),
      lastRecord:
        'text' in client
          ? expect.stringContaining(JSON.stringify(client.text).slice(1, -1))
          : expect.stringContaining(`"code":${client.errorCode}`),
    },
    temporal: { status: 'COMPLETED', exchangeStatus: expected.status, exchangeRound: expected.rounds.at(-1)![0] },
  };
}
