/**
 * A legacy round nobody answers: when its timeout passes, the open request is withdrawn with one
 * notifications/cancelled, the call fails with -32001, and a late answer is dropped.
 */
import { EXCHANGE_EXPIRED } from '../../lib/protocol/exchange-errors';
import { isNotification, isResponseTo, LegacySession } from '../support/legacy-client';
import { useTestService } from '../support/test-service';
import { accept, cancellationsIn, exchangeOf, roundsOf, sleep, startGreet } from './bare-session';

describe('legacy round timeout', () => {
  const service = useTestService({ ROUND_TIMEOUT_MS: '2000' });

  it('withdraws the unanswered request with one notifications/cancelled, then fails the call with -32001', async () => {
    const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId } = await startGreet(session);
      const asked = Date.now();
      const end = await stream.until((m) => isResponseTo(m, callId), 'the error of the expired call', 8_000);
      expect(Date.now() - asked).toBeLessThan(6_000);
      expect(end.message.error).toMatchObject({ code: EXCHANGE_EXPIRED, data: { round: 1, roundTimeoutMs: 2000 } });
      await stream.settle(1_000);
      expect(cancellationsIn(stream)).toEqual([expect.objectContaining({ requestId: askId })]);
      const cancelAt = stream.messages.findIndex((m) => isNotification(m.message, 'notifications/cancelled'));
      expect(cancelAt).toBeLessThan(stream.messages.indexOf(end));

      // A late answer is dropped.
      expect(await session.respond(askId, accept({ name: 'Late' }))).toBe(202);
      await sleep(1_000);
      const exchange = await exchangeOf(service, session);
      expect(exchange.status).toBe('expired');
      expect((await roundsOf(service, exchange.id)).map((r) => r.outcome_kind)).not.toContain('complete');
    } finally {
      await session.close();
    }
  });
});
