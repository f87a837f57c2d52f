import { elicitFrom, answerer } from '@durable-mcp/handlers';
import type { RoundRecord } from '../exchange/types';
import { asksSomeoneElse, callerRepliesTo } from './addressed-leg';

const request = { message: 'Approve?', requestedSchema: { type: 'object' as const, properties: {} } };
const askOf = (inputRequests: Record<string, unknown>): RoundRecord => ({
  exchangeId: 'x',
  round: 1,
  outcome: { kind: 'ask', inputRequests },
  recordedAt: new Date(0),
});
const forCaller = askOf({ mine: elicitFrom({ anyOf: [answerer.caller()] }, request) });
const forFinance = askOf({ theirs: elicitFrom({ anyOf: [answerer.group('finance')] }, request) });
const url = { elicitation: { url: {} } };
const refusalOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error('taken');
};

describe('a retry to an ask addressed to someone else', () => {
  it('tells addressed asks from the caller-client ones', () => {
    expect(asksSomeoneElse(forFinance)).toBe(true);
    expect(asksSomeoneElse(askOf({ plain: { method: 'elicitation/create', params: request } }))).toBe(false);
  });

  it('refuses answers from a client that takes no URL elicitations, or where no pages are served', () => {
    expect(refusalOf(() => callerRepliesTo(forCaller, {}, { mine: { action: 'decline' } }, true)).code).toBe(-32602);
    expect(refusalOf(() => callerRepliesTo(forCaller, url, { mine: { action: 'decline' } }, false)).code).toBe(-32602);
  });

  it("takes a URL client's decline of its caller's question, and refuses a reply to someone else's", () => {
    expect(callerRepliesTo(forCaller, url, { mine: { action: 'decline' }, extra: {} }, true)).toEqual([
      { key: 'mine', action: 'decline' },
    ]);
    expect(callerRepliesTo(forCaller, url, { mine: { action: 'accept' } }, true)).toEqual([]);
    expect(refusalOf(() => callerRepliesTo(forFinance, url, { theirs: { action: 'decline' } }, true)).message).toMatch(
      /inputResponses\.theirs: this question is addressed to someone else/,
    );
  });
});
