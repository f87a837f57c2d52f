import { deliveryVerdict, retryAfterMs } from './delivery-response';

describe('deliveryVerdict', () => {
  it.each([200, 202, 204, 299])('%i is delivered', (status) => expect(deliveryVerdict(status).kind).toBe('delivered'));
  it.each([408, 429, 500, 502, 503, 504])('%i is tried again', (status) =>
    expect(deliveryVerdict(status).kind).toBe('retry'),
  );
  it.each([301, 302, 307, 308, 400, 401, 403, 404, 410, 413, 422])('%i is refused, not tried again', (status) =>
    expect(deliveryVerdict(status).kind).toBe('refused'),
  );
  it('carries a Retry-After', () => expect(deliveryVerdict(429, 5000)).toEqual({ kind: 'retry', afterMs: 5000 }));
});

describe('retryAfterMs', () => {
  const now = Date.UTC(2026, 0, 1);
  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(retryAfterMs(new Date(now - 30_000).toUTCString(), now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
