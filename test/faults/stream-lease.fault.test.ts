/**
 * Who holds a legacy call's delivery when the API process delivering it goes away. A
 * process that is SIGKILLed cannot give its delivery lease up: the client's plain GET on the other
 * API process gets the open request once that lease lapses (at most DELIVERY_LEASE_MS after its
 * last renewal), not sooner (the dead stream might still have been alive) and not much later (the
 * GET waits for the lapse itself rather than for its next look). Contrast: a call stream the
 * client closes on a live process is given up at once (test/legacy/stream-lease.int.test.ts).
 */
import { DELIVERY_LEASE_MS } from '../../lib/db/legacy-store';
import { isRequest, isResponseTo, LegacySession, type JsonRpcId, type MessageStream } from '../support/legacy-client';
import { faultSuite, scenario } from './support/scenario';
import { waitFor } from './support/wait-for';

const suite = faultSuite();

/** How often the process delivering a call renews its lease (call-delivery.ts). */
const RENEWAL_MS = DELIVERY_LEASE_MS / 3;
/** How much later than the lapse the re-send may come: the claim's own work on a busy machine. */
const AFTER_LAPSE_SLACK_MS = 2_000;
/** How far the test's estimate of the lapse may run ahead of Postgres's (one query's round trip). */
const CLOCK_SLACK_MS = 200;

const isElicitation = (m: { method?: string }) => isRequest(m as never, 'elicitation/create');
const elicitationsIn = (stream: MessageStream) => stream.messages.filter((m) => isElicitation(m.message));

/** When (on the test's clock) the call's delivery lease lapses, by Postgres's own reckoning of what is left. */
async function leaseLapseOf(sessionId: string): Promise<{ lapseAt: number; heldBy: string | null }> {
  const [row] = await suite.stack.query<{ left_ms: number; delivered_by: string | null }>(
    `SELECT (extract(epoch FROM delivering_until - now()) * 1000)::float8 AS left_ms, delivered_by
       FROM legacy_calls WHERE session_id = $1`,
    [sessionId],
  );
  if (!row) throw new Error(`session ${sessionId} has no call`);
  return { lapseAt: Date.now() + Number(row.left_ms), heldBy: row.delivered_by };
}

/** The answer on `url`, then the call's result by re-attaching to it there (a GET stream carries no responses). */
async function answerAndResult(session: LegacySession, callId: JsonRpcId, askId: JsonRpcId, name: string, url: string) {
  expect(await session.respond(askId, { action: 'accept', content: { name } }, { url })).toBe(202);
  const { stream } = await session.request('tools/call', { name: 'greet', arguments: {} }, { id: callId, url });
  return (await stream.until((m) => isResponseTo(m, callId), 'the result of greet', 60_000)).message;
}

async function startGreet(session: LegacySession) {
  const { id: callId, stream } = await session.request('tools/call', { name: 'greet', arguments: {} });
  const ask = await stream.until(isElicitation, 'the elicitation/create request of greet', 60_000);
  return { callId, stream, ask: ask.message, askId: ask.message.id as JsonRpcId };
}

scenario(
  'k. the API process holding a call stream with an open elicitation is SIGKILLed: a plain GET on the other gets the request when its lease lapses, and the call completes',
  () => suite.stack,
  suite.run,
  async () => {
    const session = await LegacySession.open(suite.stack.apiUrl(0), { capabilities: { elicitation: {} } });
    const other = suite.stack.apiUrl(1);
    try {
      const { callId, ask, askId } = await startGreet(session);
      // Killed halfway between two renewals, so the lease lapses off the beat of a GET that would
      // look only every third of DELIVERY_LEASE_MS: such a GET would be seconds late here.
      const held = await waitFor(
        'the lease to be half a renewal old',
        async () => {
          const lease = await leaseLapseOf(session.sessionId);
          return lease.lapseAt - Date.now() <= DELIVERY_LEASE_MS - RENEWAL_MS / 2 && lease;
        },
        { timeoutMs: RENEWAL_MS, intervalMs: 100 },
      );
      expect(held.heldBy).not.toBeNull();
      await suite.stack.stopApi(0, 'SIGKILL'); // no goodbye: its lease stays until it lapses
      const { lapseAt, heldBy } = await leaseLapseOf(session.sessionId);
      expect(heldBy).toBe(held.heldBy); // nothing could give it up
      expect(lapseAt - Date.now()).toBeLessThanOrEqual(DELIVERY_LEASE_MS);

      const listening = await session.listen({ url: other });
      expect(listening.status).toBe(200);
      const redelivered = await listening.until(isElicitation, 'the re-sent elicitation/create request', 60_000);
      const afterLapseMs = Date.now() - lapseAt;
      expect(redelivered.message).toEqual(ask);
      expect(afterLapseMs).toBeGreaterThanOrEqual(-CLOCK_SLACK_MS);
      expect(afterLapseMs).toBeLessThanOrEqual(AFTER_LAPSE_SLACK_MS);

      const final = await answerAndResult(session, callId, askId, 'Radia', other);
      expect(final.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Radia!' }] });
      await waitFor('the exchange to be recorded completed', async () => {
        const rows = await suite.stack.query<{ status: string }>(
          'SELECT e.status FROM legacy_calls c JOIN exchanges e ON e.id = c.exchange_id WHERE c.session_id = $1',
          [session.sessionId],
        );
        return rows[0]?.status === 'completed';
      });
      await listening.settle(500);
      expect(elicitationsIn(listening)).toHaveLength(1);
    } finally {
      await session.close();
      await suite.stack.startApi(0);
    }
  },
);

scenario(
  'l. the client closes its call stream on a live API process instead: the plain GET on the other gets the request at once',
  () => suite.stack,
  suite.run,
  async () => {
    const session = await LegacySession.open(suite.stack.apiUrl(0), { capabilities: { elicitation: {} } });
    const other = suite.stack.apiUrl(1);
    try {
      const { callId, stream, ask, askId } = await startGreet(session);
      stream.close();
      const asked = Date.now();
      const listening = await session.listen({ url: other });
      const redelivered = await listening.until(isElicitation, 'the re-sent elicitation/create request', 10_000);
      expect({ message: redelivered.message, withinASecond: Date.now() - asked < 1_000 }).toEqual({
        message: ask,
        withinASecond: true,
      });
      const final = await answerAndResult(session, callId, askId, 'Grace', other);
      expect(final.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Grace!' }] });
    } finally {
      await session.close();
    }
  },
);
