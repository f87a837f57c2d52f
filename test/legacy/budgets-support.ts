/**
 * What the legacy budget tests share: the tight budgets their service runs with, the answers and
 * sampling results they send, the 429 they expect, a 2024-11-05 session opened by hand, `greet` started
 * up to its elicitation, and a stream's events and a session's call read back from Postgres.
 */
import { SERVER_BUSY } from '../../lib/protocol/rpc-error';
import { isRequest, isResponseTo, LegacySession, openSseSession, type JsonRpcMessage } from '../support/legacy-client';
import type { TestService } from '../support/test-service';

export const DEPLOY_ARGS = { service: 'checkout', version: '2.1.0', environment: 'production' };
export const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
export const assistant = (text: string) => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'test-model',
  stopReason: 'endTurn',
});
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const BUDGETS = {
  LEGACY_STREAM_MAX_EVENTS: '16',
  LEGACY_REPLAY_PAGE_SIZE: '2',
  MAX_STREAMS_PER_SESSION: '3',
  MAX_RUNNING_EXCHANGES_PER_SESSION: '2',
  MAX_REPEATED_ANSWERS: '1',
  MAX_ROUND_INPUT_BYTES: '2048',
  CAPACITY_RETRY_AFTER_S: '9',
};

/** Polls until `done` holds (returns the last value either way, for the assertion to show). */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await sleep(200);
    value = await probe();
  }
  return value;
}

export async function expectBusy(response: Response, what: string): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe('9');
  const body = (await response.json()) as JsonRpcMessage;
  expect(body.error).toMatchObject({
    code: SERVER_BUSY,
    message: expect.stringContaining(what),
    data: { retryAfterS: 9 },
  });
}

export async function initializeOverSse(
  sse: Awaited<ReturnType<typeof openSseSession>>,
  capabilities: Record<string, unknown>,
) {
  await sse.post({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: '2024-11-05', capabilities, clientInfo: { name: 't', version: '1' } },
  });
  await sse.stream.until((m) => isResponseTo(m, 'init'), 'initialize response');
  await sse.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

export async function startGreet(session: LegacySession, id?: number) {
  const { id: callId, stream } = await session.request(
    'tools/call',
    { name: 'greet', arguments: {} },
    id !== undefined ? { id } : {},
  );
  const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'elicitation/create request for greet');
  return { callId, stream, ask };
}

export async function streamEvents(service: TestService, streamId: string) {
  const { rows } = await service.pool.query<{ id: string; message_key: string; final: boolean }>(
    'SELECT id, message_key, final FROM legacy_stream_events WHERE stream_id = $1 ORDER BY id',
    [streamId],
  );
  return rows;
}

export async function legacyCallOf(service: TestService, sessionId: string) {
  const { rows } = await service.pool.query<{ exchange_id: string; stream_id: string }>(
    'SELECT exchange_id, stream_id FROM legacy_calls WHERE session_id = $1 ORDER BY created_at DESC LIMIT 1',
    [sessionId],
  );
  return rows[0]!;
}
