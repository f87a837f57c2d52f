import pino from 'pino';
import type { LegacyCall, LegacySession, LegacyStore } from '../../../../lib/db/legacy-store';
import type { ExchangeGateway } from '../../../../lib/exchange-client/exchange-gateway';
import type { LegacyMethods } from './legacy-methods';
import { createSessions } from './sessions';

const SESSION: LegacySession = {
  id: 'session-1',
  transport: 'streamable-http',
  protocolVersion: '2025-11-25',
  clientCapabilities: {},
  principal: 'alice',
} as LegacySession;

const callOf = (exchangeId: string): LegacyCall => ({
  sessionId: SESSION.id,
  requestId: JSON.stringify(exchangeId),
  requestIdJson: exchangeId,
  exchangeId,
  streamId: 'stream-1',
});

/**
 * A session of three running calls whose exchanges' cancels the test settles: `slow` when it says,
 * `failing` at once with an error, `quick` at once.
 */
function endingSession() {
  let releaseSlow: () => void = () => undefined;
  const slow = new Promise<boolean>((resolve) => (releaseSlow = () => resolve(true)));
  const cancels: Record<string, () => Promise<boolean>> = {
    slow: () => slow,
    failing: () => Promise.reject(new Error('Temporal is unavailable')),
    quick: () => Promise.resolve(true),
  };
  const asked: string[] = [];
  const closed: string[] = [];
  const legacy = {
    activeCalls: async () => Object.keys(cancels).map(callOf),
    openRequestsOfSession: async () => [],
    closeSession: async (id: string) => {
      closed.push(id);
      return true;
    },
  } as unknown as LegacyStore;
  const gateway = {
    cancel: (exchangeId: string) => {
      asked.push(exchangeId);
      return cancels[exchangeId]!();
    },
  } as unknown as ExchangeGateway;
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const sessions = createSessions({
    methods: {} as LegacyMethods,
    legacy,
    gateway,
    limits: { maxOpenSessions: 10, maxOpenSessionsPerPrincipal: 10, capacityRetryAfterS: 1 },
    log,
  });
  return { sessions, asked, closed, lines, releaseSlow };
}

describe('a session that ends cancels the exchanges of its calls', () => {
  it('all at once: a slow cancel holds none of the others, and the session ends once all settled', async () => {
    const { sessions, asked, closed, releaseSlow } = endingSession();
    const ended = sessions.endByClient(SESSION);
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual(['slow', 'failing', 'quick']);
    expect(closed).toEqual([]);
    releaseSlow();
    await ended;
    expect(closed).toEqual([SESSION.id]);
  });

  it('logs a cancel that failed, naming its exchange, and ends the session all the same', async () => {
    const { sessions, closed, lines, releaseSlow } = endingSession();
    releaseSlow();
    await sessions.endByClient(SESSION);
    expect(closed).toEqual([SESSION.id]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        exchangeId: 'failing',
        err: expect.objectContaining({ message: 'Temporal is unavailable' }),
        msg: 'an exchange of an ending session could not be cancelled (session ended)',
      }),
    );
  });
});
