/**
 * What a legacy session's stream keeps (LEGACY_STREAM_MAX_EVENTS) and how it is replayed: the
 * oldest events of a 2024-11-05 stream dropped past the cap, a still-open request kept, a dropped
 * Last-Event-ID replayed from the oldest kept, page by page; and the lookup of a session's open
 * requests served by its index. Real API, worker, Temporal and Postgres.
 */
import { createLegacyStorePg } from '../../lib/db/legacy-store-pg';
import { OPEN_REQUESTS_OF_SESSION_SQL } from '../../lib/db/legacy-requests-pg';
import { isResponseTo, LegacySession, openSseSession } from '../support/legacy-client';
import { useTestService } from '../support/test-service';
import { BUDGETS, accept, legacyCallOf, startGreet, streamEvents } from './budgets-support';

describe('legacy budgets', () => {
  const service = useTestService(BUDGETS);

  describe('a stream keeps at most LEGACY_STREAM_MAX_EVENTS events', () => {
    it('drops the oldest events of a 2024-11-05 session stream past the cap, keeping the newest', async () => {
      const sse = await openSseSession(service.url);
      try {
        for (let i = 1; i <= 24; i++)
          expect((await sse.post({ jsonrpc: '2.0', id: `ping-${i}`, method: 'ping' })).status).toBe(202);
        await sse.stream.until((m) => isResponseTo(m, 'ping-24'), 'the last ping response');
        const kept = await streamEvents(service, `sse:${sse.sessionId}`);
        expect(kept.length).toBe(16);
        // Replies of one stream are appended as each request finishes (after its 202), so two pings
        // may swap places; which events were kept is what matters: the newest 16, give or take those swaps.
        const keptPings = kept.map((e) => Number(/ping-(\d+)/.exec(e.message_key)![1]));
        expect(Math.min(...keptPings)).toBeGreaterThanOrEqual(7);
        expect(keptPings).toContain(24);
        // The live consumer still got every response, exactly once.
        const delivered = sse.stream.messages.map((m) => m.message.id).filter((id) => String(id).startsWith('ping-'));
        expect([...delivered].sort()).toEqual(Array.from({ length: 24 }, (_, i) => `ping-${i + 1}`).sort());
      } finally {
        sse.close();
      }
    });

    it('keeps a still-open request; a Last-Event-ID that was dropped replays from the oldest kept, page by page', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { callId, stream, ask } = await startGreet(session);
        const primingId = stream.eventIds[0]!;
        stream.close();
        const { stream_id: streamId } = await legacyCallOf(service, session.sessionId);
        // Grow the call's stream past its cap (as a chatty handler's notifications would).
        const store = createLegacyStorePg(service.pool, service.config.limits);
        for (let i = 1; i <= 30; i++) {
          await store.appendMessage({
            sessionId: session.sessionId,
            streamId,
            messageKey: `filler:${i}`,
            message: {
              jsonrpc: '2.0',
              method: 'notifications/message',
              params: { level: 'info', data: `filler ${i}` },
            },
          });
        }
        const kept = await streamEvents(service, streamId);
        expect(kept.map((e) => e.message_key)).not.toContain('prime');
        expect(kept.map((e) => e.message_key)).toContain(`request:${String(ask.message.id)}`); // still open: kept
        expect(kept.filter((e) => e.message_key.startsWith('filler:')).map((e) => e.message_key)).toEqual(
          Array.from({ length: 16 }, (_, i) => `filler:${i + 15}`),
        );
        // One read is one page, never the whole stream.
        expect(await store.readStream(streamId, 0)).toHaveLength(2);

        const resumed = await session.listen({ lastEventId: primingId });
        expect(resumed.status).toBe(200);
        await resumed.until((m) => m.params?.data === 'filler 30', 'the newest filler on the resumed stream');
        const replayed = resumed.messages.map((m) => m.message);
        expect(replayed[0]).toEqual(ask.message);
        expect(replayed.slice(1).map((m) => m.params?.data)).toEqual(
          Array.from({ length: 16 }, (_, i) => `filler ${i + 15}`),
        );
        expect(await session.respond(ask.message.id!, accept({ name: 'Ada' }))).toBe(202);
        const final = await resumed.until((m) => isResponseTo(m, callId), 'the result of greet');
        expect(final.message.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
      } finally {
        await session.close();
      }
    });
  });

  it('indexes the lookup of a session’s open requests by their first event', async () => {
    const client = await service.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>({
        text: `EXPLAIN ${OPEN_REQUESTS_OF_SESSION_SQL}`,
        values: ['any-session'],
      });
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('legacy_stream_events_server_request_idx');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
