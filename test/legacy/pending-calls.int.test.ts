/**
 * A handshake-era call answered with the pending result (services/api/src/legacy/pending-call.ts),
 * where it is delicate.
 *
 * The window the pending result opens on a handshake-era call: its response is recorded while the
 * API, the call being due, decides to answer it pending. The delivery stops first, then the detach
 * takes the call's row, where the projection sets `finished_at` in the transaction that appends
 * the response. Here that transaction is held open, uncommitted, across the moment the call is
 * due, so the detach waits on it and finds the response: the client gets the call's own response,
 * once, and no pending result. (The other order, an ending committed after the detach, reaches
 * whoever awaits the call: test/answers/legacy-long-waits.int.test.ts.)
 *
 * A call stream its client resumes elsewhere (Last-Event-ID) is answered pending on time too, its
 * client's timeout counted from the call's start. An `await_answer` of a call still delivered on
 * its own stream waits on its outcome only: nothing goes out on two streams. A cancel of a call
 * already answered pending cancels nothing; the end of its session cancels it only while it waits
 * on that session's client, who can no longer answer.
 */
import { projectRound } from '../../lib/db/legacy-projection';
import { PENDING_META_KEY } from '../../lib/questions/pending-result';
import {
  isRequest,
  isResponseTo,
  LegacySession,
  type JsonRpcId,
  type JsonRpcMessage,
  type MessageStream,
  type StreamedMessage,
} from '../support/legacy-client';
import { exchangeOfSession, exchangeStatus } from '../support/exchange-rows';
import { useTestService } from '../support/test-service';
import { until } from '../support/until';

const PENDING_AFTER_MS = 2_000;
const service = useTestService({ LEGACY_PENDING_AFTER_MS: String(PENDING_AFTER_MS) });

/** Whether a statement detaching a call waits on a lock. */
async function detachWaitsOnLock(): Promise<true | undefined> {
  const { rows } = await service.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity
      WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE legacy_calls SET detached_at%'`,
  );
  return Number(rows[0]!.n) > 0 || undefined;
}

const isPendingResponseTo = (m: JsonRpcMessage, id: JsonRpcId) =>
  isResponseTo(m, id) &&
  (m.result as { _meta?: Record<string, unknown> } | undefined)?._meta?.[PENDING_META_KEY] !== undefined;

/**
 * Runs `test` with a session whose `greet` call waits on its form (its request id, stream, the
 * form's request and the exchange), then answers the form so the workflow ends as it would have.
 */
async function withGreetWaiting(
  test: (call: {
    session: LegacySession;
    id: JsonRpcId;
    stream: MessageStream;
    ask: StreamedMessage;
    exchangeId: string;
  }) => Promise<void>,
): Promise<void> {
  const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
  try {
    const { id, stream } = await session.request('tools/call', { name: 'greet', arguments: {} });
    const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'the form of greet');
    const exchange = await exchangeOfSession(service.pool, session.sessionId);
    await test({ session, id, stream, ask, exchangeId: exchange.id });
    expect(await session.respond(ask.message.id!, { action: 'accept', content: { name: 'Ada' } })).toBe(202);
  } finally {
    await session.close();
  }
}

it(
  'gives a call whose response is recorded as it is due its own response, once, and no pending result',
  () =>
    withGreetWaiting(async ({ id, stream, exchangeId }) => {
      // The ending, projected as the worker projects it, held uncommitted while the call falls due.
      const recorder = await service.pool.connect();
      try {
        await recorder.query('BEGIN');
        const outcome = { kind: 'complete' as const, result: { content: [{ type: 'text', text: 'recorded first' }] } };
        await projectRound(recorder, { exchangeId, round: 2, outcome }, 1_000);
        await until('the detach waiting on the ending', detachWaitsOnLock, PENDING_AFTER_MS + 10_000);
        await recorder.query('COMMIT');
      } finally {
        recorder.release();
      }
      const response = await stream.until((m) => isResponseTo(m, id), 'the response of greet');
      expect(response.message.result).toEqual({ content: [{ type: 'text', text: 'recorded first' }] });
      const all = await stream.settle(500);
      expect(all.filter((m) => isResponseTo(m.message, id))).toHaveLength(1);
    }),
  60_000,
);

it(
  'answers a call resumed on a GET stream with the pending result, on time from the call’s start',
  () =>
    withGreetWaiting(async ({ session, id, stream, ask, exchangeId }) => {
      const due = Date.now() + PENDING_AFTER_MS;
      stream.close(); // the network drops; the client resumes after the last event it saw
      const resumed = await session.listen({ lastEventId: ask.eventId! });
      const pending = await resumed.until((m) => isResponseTo(m, id), 'the pending result', PENDING_AFTER_MS + 10_000);
      expect(isPendingResponseTo(pending.message, id)).toBe(true);
      expect(Date.now()).toBeLessThan(due + 5_000);
      // The exchange runs on: its form is still answered, and await_answer gets the greeting.
      expect(await session.respond(ask.message.id!, { action: 'accept', content: { name: 'Ada' } })).toBe(202);
      const awaited = await session.call('tools/call', { name: 'await_answer', arguments: { handle: exchangeId } });
      expect(awaited.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    }),
  60_000,
);

it(
  'has an await of a call still delivered on its own stream wait on the outcome only: no request goes out twice',
  () =>
    withGreetWaiting(async ({ session, id, stream, exchangeId }) => {
      const awaiting = await session.request('tools/call', { name: 'await_answer', arguments: { handle: exchangeId } });
      const awaited = await awaiting.stream.until((m) => isResponseTo(m, awaiting.id), 'the await’s answer', 15_000);
      expect(isPendingResponseTo(awaited.message, awaiting.id)).toBe(true);
      expect(awaiting.stream.messages.filter((m) => isRequest(m.message, 'elicitation/create'))).toEqual([]);
      // The call itself was answered pending on its own stream, once.
      await stream.until((m) => isResponseTo(m, id), 'the call’s pending result', 15_000);
      expect(stream.messages.filter((m) => isResponseTo(m.message, id))).toHaveLength(1);
    }),
  60_000,
);

it(
  'ignores a cancel of a call its client was answered pending: the exchange runs on for await_answer',
  () =>
    withGreetWaiting(async ({ session, id, stream, ask, exchangeId }) => {
      const pending = await stream.until((m) => isResponseTo(m, id), 'the pending result', PENDING_AFTER_MS + 10_000);
      expect(isPendingResponseTo(pending.message, id)).toBe(true);
      // A client whose timer fires after the response came cancels a request that completed.
      expect(await session.notify('notifications/cancelled', { requestId: id, reason: 'timed out' })).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await exchangeStatus(service.pool, exchangeId)).toBe('running');
      expect(await session.respond(ask.message.id!, { action: 'accept', content: { name: 'Ada' } })).toBe(202);
      const awaited = await session.call('tools/call', { name: 'await_answer', arguments: { handle: exchangeId } });
      expect(awaited.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    }),
  60_000,
);

it('cancels a call answered pending when its session ends while it waits on that session’s own form', async () => {
  const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
  const { id, stream } = await session.request('tools/call', { name: 'greet', arguments: {} });
  await stream.until((m) => isRequest(m, 'elicitation/create'), 'the form of greet');
  const exchange = await exchangeOfSession(service.pool, session.sessionId);
  const pending = await stream.until((m) => isResponseTo(m, id), 'the pending result', PENDING_AFTER_MS + 10_000);
  expect(isPendingResponseTo(pending.message, id)).toBe(true);
  await session.close(); // DELETE /mcp: nobody is left to fill in the form
  await until(
    'the exchange cancelled',
    async () => ((await exchangeStatus(service.pool, exchange.id)) === 'cancelled' ? true : undefined),
    15_000,
  );
}, 60_000);
