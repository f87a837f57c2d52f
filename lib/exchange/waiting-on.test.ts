// Pins whom an ask waits on as the WaitingOn search attribute lists it, and its bounds.
import { answerer } from '@durable-mcp/handlers';
import { clipUtf8, MAX_WAITING_ON_BYTES, MAX_WAITING_ON_VALUES, waitingOnOf } from './waiting-on';

describe('waitingOnOf', () => {
  it('is the caller for an ask of the caller', () => {
    expect(waitingOnOf(['name', 'roots'], undefined)).toEqual(['caller']);
  });

  it('names each addressee of an addressed ask as a short keyword', () => {
    expect(
      waitingOnOf(['approval', 'review'], {
        approval: {
          anyOf: [answerer.group('finance'), answerer.scope('refunds:approve'), answerer.service('slack-bot')],
        },
        review: { eachOf: [answerer.principal('https://id.example', 'rita'), answerer.caller()] },
      }),
    ).toEqual([
      'group:finance',
      'scope:refunds:approve',
      'service:slack-bot',
      'principal:https://id.example|rita',
      'caller',
    ]);
  });

  it('adds the caller when part of the ask is the caller’s own, and lists each addressee once', () => {
    expect(
      waitingOnOf(['roots', 'a', 'b'], {
        a: { anyOf: [answerer.group('finance')] },
        b: { anyOf: [answerer.group('finance')], escalate: { afterMs: 60_000, to: [answerer.group('cfo')] } },
      }),
    ).toEqual(['caller', 'group:finance']);
  });

  it('holds at most 20 values of at most 255 bytes each', () => {
    const many = Array.from({ length: 30 }, (_, i) => answerer.group(`team-${i}`));
    const values = waitingOnOf(['q'], { q: { anyOf: [answerer.group('é'.repeat(300)), ...many] } });
    expect(values).toHaveLength(MAX_WAITING_ON_VALUES);
    expect(Buffer.byteLength(values[0]!, 'utf8')).toBeLessThanOrEqual(MAX_WAITING_ON_BYTES);
    expect(values[0]!.startsWith('group:é')).toBe(true);
    expect(values[1]).toBe('group:team-0');
  });
});

describe('clipUtf8', () => {
  it('never cuts a character in two', () => {
    expect(clipUtf8('aé😀', 3)).toBe('aé');
    expect(clipUtf8('aé😀', 6)).toBe('aé');
    expect(clipUtf8('aé😀', 7)).toBe('aé😀');
  });
});
