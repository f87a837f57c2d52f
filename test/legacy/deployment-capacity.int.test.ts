/**
 * Legacy capacity across the deployment, on two API replicas sharing one worker: initialize and
 * GET /sse refused once MAX_OPEN_SESSIONS sessions are open (counted in Postgres), and a stream refused
 * past MAX_OPEN_STREAMS on one API process, whichever session asks, while another process has room.
 */
import { LegacySession } from '../support/legacy-client';
import { startTestService, type TestService } from '../support/test-service';
import { expectBusy, sleep } from './budgets-support';

describe('legacy capacity across the deployment', () => {
  let main: TestService;
  let tight: TestService;
  beforeAll(async () => {
    main = await startTestService({ SSE_MAX_BUFFERED_BYTES: '65536' });
    tight = await startTestService({
      TEMPORAL_TASK_QUEUE: main.config.temporal.taskQueue,
      MAX_OPEN_SESSIONS: '1',
      MAX_OPEN_STREAMS: '1',
      CAPACITY_RETRY_AFTER_S: '9',
    });
    await tight.stopWorker();
  });
  afterAll(async () => {
    await tight?.close();
    await main?.close();
  });

  it('refuses initialize and GET /sse once MAX_OPEN_SESSIONS sessions are open (counted in Postgres)', async () => {
    const open = await LegacySession.open(main.url); // at least this one is open
    try {
      const init = await fetch(tight.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      });
      await expectBusy(init, 'open sessions');
      await expectBusy(
        await fetch(tight.url.replace(/\/mcp$/, '/sse'), { headers: { accept: 'text/event-stream' } }),
        'open sessions',
      );
    } finally {
      await open.close();
    }
  });

  it('refuses a stream past MAX_OPEN_STREAMS on one API process, whichever session asks', async () => {
    const a = await LegacySession.open(main.url);
    const b = await LegacySession.open(main.url);
    try {
      const held = await a.listen({ url: tight.url });
      expect(held.status).toBe(200);
      await expectBusy(
        await fetch(tight.url, { headers: { ...b.headers(), accept: 'text/event-stream' } }),
        'open streams on this server',
      );
      expect((await b.listen()).status).toBe(200); // another process has room
      held.close();
      await sleep(300);
      expect((await b.listen({ url: tight.url })).status).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
