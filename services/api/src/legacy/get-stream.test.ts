import type { LegacyCall } from '../../../../lib/db/legacy-store';
import { newlyClaimed, parseLastEventId, redeliveries } from './get-stream';

const call = (exchangeId: string): LegacyCall => ({
  sessionId: 's',
  requestId: `"${exchangeId}"`,
  requestIdJson: exchangeId,
  exchangeId,
  streamId: `call:${exchangeId}`,
});

describe('parseLastEventId', () => {
  it('reads an integer event id, and nothing else', () => {
    expect(parseLastEventId('42')).toBe(42);
    expect(parseLastEventId(undefined)).toBeUndefined();
    expect(parseLastEventId('abc')).toBeUndefined();
    expect(parseLastEventId('4.5')).toBeUndefined();
    expect(parseLastEventId('Infinity')).toBeUndefined();
  });
});

describe('newlyClaimed', () => {
  it('leaves out the calls this stream already delivers, keeping the order of the claim', () => {
    const claimed = [call('a'), call('b'), call('c')];
    expect(newlyClaimed(claimed, new Set(['b'])).map((c) => c.exchangeId)).toEqual(['a', 'c']);
    expect(newlyClaimed(claimed, new Set(['a', 'b', 'c']))).toEqual([]);
  });
});

describe('redeliveries', () => {
  it("re-delivers the open requests of the calls taken over only, in the store's order, with their event ids", () => {
    const open = [
      { exchangeId: 'a', key: 'k1', eventId: 3 },
      { exchangeId: 'other', key: 'k', eventId: 4 },
      { exchangeId: 'a', key: 'k2', eventId: 7 },
      { exchangeId: 'b', key: 'k' },
    ];
    const takenOver = [
      { exchangeId: 'b', afterId: 0 },
      { exchangeId: 'a', afterId: 7 },
    ];
    expect(redeliveries(open, takenOver)).toEqual([
      { exchangeId: 'a', key: 'k1', eventId: 3 },
      { exchangeId: 'a', key: 'k2', eventId: 7 },
      { exchangeId: 'b', key: 'k' },
    ]);
    expect(redeliveries(open, [])).toEqual([]);
  });

  it('leaves a request written after the call was taken over to the delivery that follows its stream', () => {
    const open = [
      { exchangeId: 'a', key: 'k1', eventId: 3 },
      { exchangeId: 'a', key: 'k2', eventId: 9 },
    ];
    expect(redeliveries(open, [{ exchangeId: 'a', afterId: 5 }])).toEqual([{ exchangeId: 'a', key: 'k1', eventId: 3 }]);
  });
});
