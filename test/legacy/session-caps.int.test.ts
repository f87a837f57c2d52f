/**
 * A legacy session's caps: -32000 with HTTP 429 and Retry-After for a stream past
 * MAX_STREAMS_PER_SESSION and an exchange past MAX_RUNNING_EXCHANGES_PER_SESSION (a retried request id
 * re-attaches); on the 2024-11-05 transport the refused call's error goes on the stream.
 */
import { SERVER_BUSY } from '../../lib/protocol/rpc-error';
import { isRequest, isResponseTo, LegacySession, openSseSession } from '../support/legacy-client';
import { useTestService } from '../support/test-service';
import { BUDGETS, accept, expectBusy, initializeOverSse, sleep, startGreet } from './budgets-support';

describe('legacy budgets', () => {
  const service = useTestService(BUDGETS);

  describe('stream and exchange caps: -32000 with HTTP 429 and Retry-After', () => {
    it('refuses a GET stream, and a call (which opens a stream), past MAX_STREAMS_PER_SESSION', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const open = [await session.listen(), await session.listen(), await session.listen()];
        expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
        await expectBusy(
          await fetch(service.url, { headers: { ...session.headers(), accept: 'text/event-stream' } }),
          'open streams of this session',
        );
        await expectBusy(
          await session.post({
            jsonrpc: '2.0',
            id: 77,
            method: 'tools/call',
            params: { name: 'greet', arguments: {} },
          }),
          'open streams of this session',
        );
        // Requests that answer inline need no stream.
        expect((await session.call('ping')).result).toEqual({});
        open[0]!.close();
        await sleep(300);
        expect((await session.listen()).status).toBe(200);
      } finally {
        await session.close();
      }
    });

    it('refuses a new exchange past MAX_RUNNING_EXCHANGES_PER_SESSION, even with its streams closed; a retried request id re-attaches', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const first = await startGreet(session, 1);
        const second = await startGreet(session, 2);
        first.stream.close();
        second.stream.close();
        await sleep(300);
        await expectBusy(
          await session.post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'greet', arguments: {} } }),
          'running exchanges of this session',
        );
        const again = await session.request('tools/call', { name: 'greet', arguments: {} }, { id: 1 });
        expect(again.stream.status).toBe(200);
        expect(await session.respond(first.ask.message.id!, accept({ name: 'Lin' }))).toBe(202);
        await again.stream.until((m) => isResponseTo(m, 1), 'the result of the first greet');
        // One of the two finished: a new exchange may start.
        const third = await startGreet(session, 4);
        expect(third.ask.message.method).toBe('elicitation/create');
      } finally {
        await session.close();
      }
    });

    it('on the 2024-11-05 transport the refused call gets its JSON-RPC error on the stream', async () => {
      const sse = await openSseSession(service.url);
      try {
        await initializeOverSse(sse, { elicitation: {} });
        for (const id of ['g1', 'g2', 'g3']) {
          expect(
            (await sse.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'greet', arguments: {} } }))
              .status,
          ).toBe(202);
          if (id !== 'g3')
            await sse.stream.until((m) => isRequest(m, 'elicitation/create'), `the elicitation of ${id}`);
        }
        const refused = await sse.stream.until((m) => isResponseTo(m, 'g3'), 'the answer to the third call');
        expect(refused.message.error).toMatchObject({
          code: SERVER_BUSY,
          message: expect.stringContaining('running exchanges of this session'),
        });
      } finally {
        sse.close();
      }
    });
  });
});
