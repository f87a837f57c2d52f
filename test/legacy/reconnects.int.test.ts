/**
 * A legacy client that loses its stream loses nothing, on one API replica: a dropped call stream
 * resumes from the last event id it saw (the replay, then the next rounds and the result), and a
 * still-open request is delivered again on a new GET stream, where answering it completes the exchange.
 */
import { isRequest, isResponseTo, LegacySession } from '../support/legacy-client';
import { useTestService } from '../support/test-service';
import { DEPLOY_ARGS, assistant } from './official-client';
import { accept, eventually, exchangeOf, expectText, roundsOf, sleep, startGreet } from './bare-session';

describe('legacy clients on one API replica', () => {
  const service = useTestService();

  describe('reconnects', () => {
    it('resumes a dropped call stream from the last event id it saw: the result follows on the resumed stream', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { callId, stream, askId, askEventId } = await startGreet(session);
        expect(askEventId).toEqual(expect.any(String)); // SSE events carry ids
        stream.close(); // what the 1.x client does next: GET with Last-Event-ID = the last id it saw
        await sleep(300);

        const resumed = await session.listen({ lastEventId: askEventId });
        expect(resumed.status).toBe(200);
        expect(resumed.isSse).toBe(true);
        expect(await session.respond(askId, accept({ name: 'Joan' }))).toBe(202);
        const final = await resumed.until((m) => isResponseTo(m, callId), 'the result of greet on the resumed stream');
        expectText(final.message, 'Hello, Joan!');
      } finally {
        await session.close();
      }
    });

    it('replays what followed Last-Event-ID, then carries the next rounds and the result on the resumed stream', async () => {
      const session = await LegacySession.open(service.url, {
        capabilities: { elicitation: {}, sampling: {}, roots: {} },
      });
      try {
        const { id: callId, stream } = await session.request('tools/call', {
          name: 'deploy_service',
          arguments: DEPLOY_ARGS,
        });
        // Round 1 asks for roots and a summary together: two server-to-client requests, two events.
        await stream.until((m) => isRequest(m, 'roots/list'), 'roots/list request');
        await stream.until((m) => isRequest(m, 'sampling/createMessage'), 'sampling/createMessage request');
        const round1 = stream.messages.filter((m) => isRequest(m.message));
        expect(round1).toHaveLength(2);
        expect(round1.map((m) => m.eventId)).toEqual([expect.any(String), expect.any(String)]);
        const [first, second] = round1 as [(typeof round1)[0], (typeof round1)[0]];
        stream.close();
        await sleep(300);

        // Resume as if only the first event had arrived: the second must be replayed, same id and all.
        const resumed = await session.listen({ lastEventId: first.eventId! });
        expect(resumed.status).toBe(200);
        const replayed = await resumed.until(
          (m) => m.id === second.message.id,
          `replay of the ${second.message.method} request`,
        );
        expect(replayed.message).toEqual(second.message);

        const rootsRequest = round1.find((m) => m.message.method === 'roots/list')!.message;
        const sampleRequest = round1.find((m) => m.message.method === 'sampling/createMessage')!.message;
        expect(await session.respond(rootsRequest.id!, { roots: [{ uri: 'file:///src/checkout' }] })).toBe(202);
        expect(await session.respond(sampleRequest.id!, assistant('Adds retries.'))).toBe(202);

        const approval = await resumed.until(
          (m) => isRequest(m, 'elicitation/create'),
          'the round-2 elicitation on the resumed stream',
        );
        expect(approval.message.params).toMatchObject({ message: expect.stringContaining('Adds retries.') });
        expect(await session.respond(approval.message.id!, accept({ approve: true, ticket: 'CHG-10' }))).toBe(202);
        const final = await resumed.until(
          (m) => isResponseTo(m, callId),
          'the result of deploy_service on the resumed stream',
        );
        expectText(final.message, 'Approved: checkout@2.1.0 to production (ticket CHG-10).');
      } finally {
        await session.close();
      }
    });

    it('re-delivers a still-open request on a new GET stream; answering it completes the exchange', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { stream, askId, ask } = await startGreet(session);
        stream.close();
        await sleep(300);

        const listening = await session.listen();
        expect(listening.status).toBe(200);
        const redelivered = await listening.until(
          (m) => isRequest(m, 'elicitation/create'),
          'the re-delivered elicitation request',
        );
        expect(redelivered.message).toEqual(ask);

        expect(await session.respond(askId, accept({ name: 'Kai' }))).toBe(202);
        const exchange = await eventually(
          () => exchangeOf(service, session),
          (e) => e.status === 'completed',
        );
        expect(exchange.status).toBe('completed');
        const rounds = await roundsOf(service, exchange.id);
        expect(rounds.map((r) => [r.round, r.outcome_kind])).toEqual([
          [1, 'ask'],
          [2, 'complete'],
        ]);
        expect(JSON.stringify(rounds[1]!.outcome)).toContain('Hello, Kai!');
      } finally {
        await session.close();
      }
    });
  });
});
