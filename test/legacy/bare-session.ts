/**
 * What the legacy tests do with a bare session (support/legacy-client) and read back from the
 * database: start `greet` up to its elicitation, read a call's stream, the exchange and rounds a session
 * started, and polling.
 */
import {
  isNotification,
  isRequest,
  LegacySession,
  type JsonRpcId,
  type JsonRpcMessage,
  type MessageStream,
} from '../support/legacy-client';
import { exchangeOfSession } from '../support/exchange-rows';
import type { TestService } from '../support/test-service';

export const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** Starts `greet` on a bare session and reads its stream up to the elicitation request. */
export async function startGreet(session: LegacySession, url?: string) {
  const { id: callId, stream } = await session.request(
    'tools/call',
    { name: 'greet', arguments: {} },
    url ? { url } : {},
  );
  const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'elicitation/create request for greet');
  return { callId, stream, ask: ask.message, askId: ask.message.id as JsonRpcId, askEventId: ask.eventId };
}

export function expectText(message: JsonRpcMessage, text: string): void {
  expect(message.error).toBeUndefined();
  expect(message.result).toMatchObject({ content: [{ type: 'text', text }] });
}

export const cancellationsIn = (stream: MessageStream) =>
  stream.messages.filter((m) => isNotification(m.message, 'notifications/cancelled')).map((m) => m.message.params);

/** The exchange a raw legacy session started (each of these tests starts one per session). */
export const exchangeOf = (service: TestService, session: LegacySession) =>
  exchangeOfSession(service.pool, session.sessionId);

export async function roundsOf(service: TestService, exchangeId: string) {
  const { rows } = await service.pool.query<{
    round: number;
    outcome_kind: string;
    answers: Record<string, unknown> | null;
    outcome: unknown;
  }>('SELECT round, outcome_kind, answers, outcome FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round', [
    exchangeId,
  ]);
  return rows;
}

/** Polls until `done` holds (returns the last value either way, for the assertion to show). */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await probe();
  }
  return value;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
