/**
 * What an API process logs about a legacy session: a digest of its id (initialized, ended by
 * the client), never the id itself.
 */
import { sessionRef } from '../../lib/log';
import { startApiProcess } from '../support/service-processes';
import { isResponseTo, LegacySession } from '../support/legacy-client';
import { startTestService, TEST_KEY_RINGS, type TestService } from '../support/test-service';
import { accept, eventually, startGreet } from './budgets-support';

describe('legacy session logs', () => {
  let main: TestService;
  beforeAll(async () => {
    main = await startTestService();
  });
  afterAll(async () => {
    await main?.close();
  });

  it('logs a digest of the session id, never the id', async () => {
    const api = await startApiProcess({
      DATABASE_URL: main.config.database.url,
      TEMPORAL_ADDRESS: main.config.temporal.address,
      TEMPORAL_TASK_QUEUE: main.config.temporal.taskQueue,
      ...TEST_KEY_RINGS,
    });
    try {
      const session = await LegacySession.open(api.url, { capabilities: { elicitation: {} } });
      const { callId, stream, ask } = await startGreet(session);
      expect(await session.respond(ask.message.id!, accept({ name: 'Noor' }))).toBe(202);
      await stream.until((m) => isResponseTo(m, callId), 'the result of greet');
      expect(await session.respond('never-issued', {})).toBe(202);
      expect(await session.terminate()).toBe(200);
      const output = await eventually(
        async () => api.output(),
        (text) => text.includes('session ended by the client'),
      );
      expect(output).toContain(`"session":"${sessionRef(session.sessionId).session}"`);
      expect(output).toContain('session initialized');
      expect(output).not.toContain(session.sessionId);
    } finally {
      await api.kill();
    }
  });
});
