// Pins server-to-client request ids: strings in our own namespace, distinct per exchange, round and key.
import { isReverseRequestId, reverseRequestId } from './reverse-request-id';

describe('reverseRequestId', () => {
  const exchange = '6f1c1f7e-2b1a-4c55-9a53-0b8c2d4e1f00';

  it('names the exchange and round, and encodes any key safely', () => {
    const id = reverseRequestId(exchange, 2, 'user:name/ü');
    expect(id).toMatch(new RegExp(`^mcp-srq:${exchange}:2:[A-Za-z0-9_-]+$`));
  });

  it('differs for another round or another key', () => {
    const ids = new Set([
      reverseRequestId(exchange, 1, 'a'),
      reverseRequestId(exchange, 2, 'a'),
      reverseRequestId(exchange, 1, 'b'),
    ]);
    expect(ids.size).toBe(3);
  });

  it('recognises only its own ids, never a client id', () => {
    expect(isReverseRequestId(reverseRequestId(exchange, 1, 'a'))).toBe(true);
    expect(isReverseRequestId(1)).toBe(false);
    expect(isReverseRequestId('srq-123')).toBe(false);
  });
});
