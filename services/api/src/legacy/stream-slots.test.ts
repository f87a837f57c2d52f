import { renderErrorResponse } from '../../../../lib/protocol/error-response';
import { SERVER_BUSY, RpcError } from '../../../../lib/protocol/rpc-error';
import { createStreamSlots } from './stream-slots';

const refusal = (take: () => unknown): RpcError => {
  try {
    take();
  } catch (error) {
    return error as RpcError;
  }
  throw new Error('expected the slot to be refused');
};

describe('stream slots', () => {
  it('refuses a session past its own streams with -32000, HTTP 429 and Retry-After', () => {
    const slots = createStreamSlots({ maxOpenStreams: 10, maxStreamsPerSession: 2, capacityRetryAfterS: 7 });
    slots.take('a');
    slots.take('a');
    const error = refusal(() => slots.take('a'));
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(SERVER_BUSY);
    expect(renderErrorResponse('legacy', error, null).status).toBe(429);
    expect(error.http.retryAfterS).toBe(7);
    expect(error.message).toContain('open streams of this session');
    expect(() => slots.take('b')).not.toThrow();
  });

  it('refuses any session once the process holds its limit, and frees a slot once (release is idempotent)', () => {
    const slots = createStreamSlots({ maxOpenStreams: 2, maxStreamsPerSession: 5, capacityRetryAfterS: 1 });
    const release = slots.take('a');
    slots.take('b');
    expect(refusal(() => slots.take('c')).message).toContain('open streams on this server');
    release();
    release();
    expect(slots.open).toBe(1);
    slots.take('c');
    expect(refusal(() => slots.take('d')).code).toBe(SERVER_BUSY);
  });
});
