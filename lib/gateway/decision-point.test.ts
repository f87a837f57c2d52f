import { askDecisionPoint, readAnswer } from './decision-point';

const quiet = { warn: () => undefined };
const point = {
  url: 'http://pdp/evaluation',
  secretEnv: 'S',
  timeoutMs: 200,
  onError: 'deny' as const,
  secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
};
const request = {
  upstream: 'shop',
  tool: 'add',
  arguments: { a: 1 },
  principal: { id: 'anonymous', subject: 'anonymous', scopes: [] },
  exchangeId: 'e-1',
  policy: 'p',
};

describe("a decision point's answer", () => {
  it('forwards, holds for the approval it addresses, or denies with its reason', () => {
    expect(readAnswer({ decision: true })).toEqual({ kind: 'forward' });
    expect(readAnswer({ decision: true, context: { approve: { anyOf: [{ group: 'g' }] } } })).toEqual({
      kind: 'approve',
      addressing: { anyOf: [{ group: 'g' }] },
    });
    expect(readAnswer({ decision: false, context: { reason: 'closed' } })).toEqual({ kind: 'deny', reason: 'closed' });
    expect(readAnswer({ decision: false })).toEqual({ kind: 'deny', reason: 'the decision point denied it' });
  });

  it('decides nothing when it is not an evaluation result', () => {
    expect(readAnswer({ allow: true })).toHaveProperty('problem');
    expect(readAnswer(null)).toHaveProperty('problem');
  });

  it('denies, whatever onError says, on a false decision with a bad reason, or an approval that cannot be asked', () => {
    expect(readAnswer({ decision: false, context: { reason: 'x'.repeat(501) } })).toEqual({
      kind: 'deny',
      reason: 'the decision point denied it',
    });
    expect(readAnswer({ decision: false, context: { reason: 42 } })).toMatchObject({ kind: 'deny' });
    expect(readAnswer({ decision: true, context: { approve: { anyOf: [] } } })).toMatchObject({ kind: 'deny' });
  });

  it('fails closed, or open when its policy says so, when the point cannot be reached or is late', async () => {
    const down = () => Promise.reject(new TypeError('fetch failed'));
    expect(await askDecisionPoint(point, request, quiet, down as typeof fetch)).toMatchObject({ kind: 'deny' });
    expect(await askDecisionPoint({ ...point, onError: 'allow' }, request, quiet, down as typeof fetch)).toEqual({
      kind: 'forward',
    });
    const signalled = (_url: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    expect(await askDecisionPoint(point, request, quiet, signalled as typeof fetch)).toMatchObject({ kind: 'deny' });
  });
});
