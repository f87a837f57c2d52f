/**
 * A legacy client whose call stream closed while a server-to-client request was open gets
 * that request again on a plain `GET /mcp` (no Last-Event-ID) within a second, from either
 * replica: the connection that delivered the call gives its delivery lease up as it closes, and
 * the session's GET streams, woken by that release's NOTIFY, claim the call at once. Nothing waits
 * for the lease to lapse (DELIVERY_LEASE_MS, 30 s) or for a poll, so the bound holds while the
 * machine is busy too. Meanwhile a request goes out on one stream at a time: a GET stream gives a
 * call up when the client resumes it elsewhere. A replica that died cannot give its lease up: that case is the fault
 * scenario test/faults/stream-lease.fault.test.ts.
 */
import os from 'node:os';
import { isRequest, isResponseTo, LegacySession, type JsonRpcId, type MessageStream } from '../support/legacy-client';
import { startBusyCpus } from '../support/busy-cpus';
import { exchangeOfSession } from '../support/exchange-rows';
import { useReplicaPair } from '../support/test-service';

/** What the issue promises: the open request is re-sent within a second of the GET. */
const RESEND_BOUND_MS = 1_000;

const accept = (name: string) => ({ action: 'accept', content: { name } });
const isElicitation = (m: { method?: string }) => isRequest(m as never, 'elicitation/create');

/** Starts `greet` on replica A and reads its call stream up to the elicitation request. */
async function startGreet(session: LegacySession) {
  const { id: callId, stream } = await session.request('tools/call', { name: 'greet', arguments: {} });
  const ask = await stream.until(isElicitation, 'the elicitation/create request of greet');
  return { callId, stream, ask: ask.message, askId: ask.message.id as JsonRpcId };
}

/** How long until `stream` carries the elicitation request, counted from `since`. */
async function elicitationAfter(stream: MessageStream, since: number) {
  const redelivered = await stream.until(isElicitation, 'the re-sent elicitation/create request', 10_000);
  return { redelivered: redelivered.message, elapsedMs: Date.now() - since };
}

const elicitationsIn = (stream: MessageStream) => stream.messages.filter((m) => isElicitation(m.message));

describe('a call stream that closed while its request was open', () => {
  const [replicaA, replicaB] = useReplicaPair();
  const urls = () => ({ 'the other replica': replicaB.url, 'the same replica': replicaA.url });

  /**
   * Closes the call stream and at once (no pause: the GET may reach the server before it has seen
   * the close) opens a plain GET on `getUrl`; checks the request comes back within the bound, once,
   * and that answering it on the GET's replica completes the call with that answer.
   */
  async function closeThenGet(getUrl: string, name: string) {
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, ask, askId } = await startGreet(session);
      stream.close();
      const asked = Date.now();
      const listening = await session.listen({ url: getUrl });
      expect(listening.status).toBe(200);
      const { redelivered, elapsedMs } = await elicitationAfter(listening, asked);
      expect(redelivered).toEqual(ask);

      expect(await session.respond(askId, accept(name), { url: getUrl })).toBe(202);
      // The GET stream carries no responses; the same request id again re-attaches to the call.
      const reattached = await session.request('tools/call', { name: 'greet', arguments: {} }, { id: callId });
      const final = await reattached.stream.until((m) => isResponseTo(m, callId), 'the result of greet');
      expect(final.message.result).toMatchObject({ content: [{ type: 'text', text: `Hello, ${name}!` }] });
      expect((await exchangeOfSession(replicaA.pool, session.sessionId)).status).toBe('completed');
      expect(elicitationsIn(listening)).toHaveLength(1); // re-sent once, on this one stream
      return elapsedMs;
    } finally {
      await session.close();
    }
  }

  it.each(['the other replica', 'the same replica'] as const)(
    'is re-sent on a plain GET to %s within a second; answering it completes the call with that answer',
    async (where) => {
      const elapsedMs = await closeThenGet(urls()[where], 'Ada');
      expect(elapsedMs).toBeLessThan(RESEND_BOUND_MS);
    },
  );

  it('is re-sent within a second while every core is busy', async () => {
    // Children spinning on every core: the re-send rides the release's NOTIFY, not a timer that a
    // loaded machine stretches, so it is only as late as the processes' turns to run.
    const busy = startBusyCpus(os.cpus().length);
    try {
      const elapsed = [];
      for (const name of ['Barbara', 'Edsger', 'Frances']) elapsed.push(await closeThenGet(replicaB.url, name));
      expect(Math.max(...elapsed)).toBeLessThan(RESEND_BOUND_MS);
    } finally {
      await busy.stop();
    }
  });

  it('goes out on one stream only: a GET stream delivering the call stops once the client resumes it by Last-Event-ID', async () => {
    const session = await LegacySession.open(replicaA.url, {
      capabilities: { elicitation: {}, sampling: {}, roots: {} },
    });
    try {
      const { id: callId, stream } = await session.request('tools/call', {
        name: 'deploy_service',
        arguments: { service: 'checkout', version: '2.1.0', environment: 'production' },
      });
      await stream.until((m) => isRequest(m, 'roots/list'), 'roots/list request');
      const sampling = await stream.until((m) => isRequest(m, 'sampling/createMessage'), 'sampling request');
      const roots = stream.messages.find((m) => isRequest(m.message, 'roots/list'))!;
      stream.close();
      const listening = await session.listen({ url: replicaB.url });
      await listening.until((m) => isRequest(m, 'sampling/createMessage'), 'the re-sent sampling request');

      // The client resumes its call stream (as the official client does) while the GET stays open.
      const resumed = await session.listen({ url: replicaA.url, lastEventId: sampling.eventId! });
      expect(await session.respond(roots.message.id!, { roots: [{ uri: 'file:///src/checkout' }] })).toBe(202);
      const summary = {
        role: 'assistant',
        content: { type: 'text', text: 'Adds retries.' },
        model: 'm',
        stopReason: 'endTurn',
      };
      expect(await session.respond(sampling.message.id!, summary)).toBe(202);
      const approval = await resumed.until(isElicitation, 'the round-2 elicitation on the resumed stream');
      expect(
        await session.respond(approval.message.id!, { action: 'accept', content: { approve: true, ticket: 'C-1' } }),
      ).toBe(202);
      await resumed.until((m) => isResponseTo(m, callId), 'the result on the resumed stream');
      await listening.settle(500);
      expect(elicitationsIn(listening)).toHaveLength(0); // the GET gave the call up when it was resumed
      expect(elicitationsIn(resumed)).toHaveLength(1);
    } finally {
      await session.close();
    }
  });

  it('reaches a GET stream that was already open: not while the call stream holds it, then at once', async () => {
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      const standing = await session.listen({ url: replicaB.url });
      expect(standing.status).toBe(200);
      const { stream, ask } = await startGreet(session);
      await standing.settle(1_000);
      expect(elicitationsIn(standing)).toHaveLength(0); // delivered on the call stream only
      stream.close();
      const { redelivered, elapsedMs } = await elicitationAfter(standing, Date.now());
      expect(redelivered).toEqual(ask);
      expect(elapsedMs).toBeLessThan(RESEND_BOUND_MS);
      await standing.settle(500);
      expect(elicitationsIn(standing)).toHaveLength(1);
    } finally {
      await session.close();
    }
  });
});
