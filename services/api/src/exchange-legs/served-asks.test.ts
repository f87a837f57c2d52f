import type { RoundRecord } from '../../../../lib/exchange/types';
import { ADDRESSED_TO } from '../../../../lib/questions/addressing';
import { createServedAsks, DEADLINE_MARGIN_MS } from './served-asks';

const NOW = Date.parse('2026-12-06T12:00:00Z');

const elicit = (message: string, extra: Record<string, unknown> = {}) => ({
  method: 'elicitation/create',
  params: { message, requestedSchema: { type: 'object', properties: {} } },
  ...extra,
});

function ask(exchangeId: string, round = 1, overrides: Partial<RoundRecord> = {}): RoundRecord {
  return {
    exchangeId,
    round,
    outcome: { kind: 'ask', inputRequests: { name: elicit('Your name?') } } as RoundRecord['outcome'],
    recordedAt: new Date(NOW - 1_000),
    deadlineAt: new Date(NOW + 600_000),
    ...overrides,
  };
}

describe('the asks an API process handed out', () => {
  it('gives a kept ask back once: the same requestState sent again reads first', () => {
    const served = createServedAsks(1_000_000);
    const record = ask('x1');
    served.keep(record);
    expect(served.take('x1', 1, NOW)).toBe(record);
    expect(served.take('x1', 1, NOW)).toBeUndefined();
    expect(served.bytes).toBe(0);
  });

  it('keys each ask by its exchange and round', () => {
    const served = createServedAsks(1_000_000);
    served.keep(ask('x1', 2));
    expect(served.take('x1', 1, NOW)).toBeUndefined();
    expect(served.take('x2', 2, NOW)).toBeUndefined();
    expect(served.take('x1', 2, NOW)?.round).toBe(2);
  });

  it('keeps only asks of the caller that have a deadline', () => {
    const served = createServedAsks(1_000_000);
    served.keep(
      ask('addressed', 1, {
        outcome: {
          kind: 'ask',
          inputRequests: { approve: elicit('Approve?', { [ADDRESSED_TO]: { users: ['ana'] } }) },
        } as RoundRecord['outcome'],
      }),
    );
    served.keep(ask('no-deadline', 1, { deadlineAt: undefined }));
    served.keep(
      ask('complete', 1, { outcome: { kind: 'complete', result: { content: [] } } as RoundRecord['outcome'] }),
    );
    expect(['addressed', 'no-deadline', 'complete'].map((id) => served.take(id, 1, NOW))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(served.bytes).toBe(0);
  });

  it('does not give back an ask whose deadline is within the margin: its answer is judged on the records', () => {
    const served = createServedAsks(1_000_000);
    served.keep(ask('near', 1, { deadlineAt: new Date(NOW + DEADLINE_MARGIN_MS) }));
    served.keep(ask('past', 1, { deadlineAt: new Date(NOW - 1) }));
    served.keep(ask('in-time', 1, { deadlineAt: new Date(NOW + DEADLINE_MARGIN_MS + 1) }));
    expect(served.take('near', 1, NOW)).toBeUndefined();
    expect(served.take('past', 1, NOW)).toBeUndefined();
    expect(served.take('in-time', 1, NOW)?.exchangeId).toBe('in-time');
    expect(served.bytes).toBe(0);
  });

  it('drops the oldest asks past its byte budget, and keeps none over it', () => {
    const one = createServedAsks(1_000_000);
    one.keep(ask('probe'));
    const size = one.bytes;
    const served = createServedAsks(size * 2);
    for (const id of ['a', 'b', 'c']) served.keep(ask(id));
    expect(served.bytes).toBe(size * 2);
    expect(['a', 'b', 'c'].map((id) => served.take(id, 1, NOW)?.exchangeId)).toEqual([undefined, 'b', 'c']);
    const tooSmall = createServedAsks(size - 1);
    tooSmall.keep(ask('big'));
    expect([tooSmall.take('big', 1, NOW), tooSmall.bytes]).toEqual([undefined, 0]);
  });

  it('keeps none with a budget of 0', () => {
    const served = createServedAsks(0);
    served.keep(ask('x1'));
    expect(served.take('x1', 1, NOW)).toBeUndefined();
  });

  it('counts an ask kept twice once', () => {
    const served = createServedAsks(1_000_000);
    served.keep(ask('x1'));
    const size = served.bytes;
    served.keep(ask('x1'));
    expect(served.bytes).toBe(size);
  });
});
