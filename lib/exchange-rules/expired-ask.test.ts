import { acceptKeyAnswer, initialState, recordRound } from './exchange-state';
import { expireAsk } from './expired-ask';

const ask = {
  round: 1,
  kind: 'ask' as const,
  askKeys: ['a', 'b'],
  status: 'running' as const,
  deadlineAt: 10_000,
};

describe('an ask whose wait ended, handed to its handler', () => {
  it('names every key nobody decided as expired and clears the wait', () => {
    const state = initialState('caller');
    recordRound(state, ask);
    const answers = expireAsk(state);
    expect(answers).toEqual({ round: 1, responses: {}, digest: '', expired: ['a', 'b'] });
    expect(state.awaiting).toBeUndefined();
  });

  it('keeps the keys decided before the end, with their answers', () => {
    const state = initialState('caller');
    recordRound(state, ask);
    expect(acceptKeyAnswer(state, { round: 1, key: 'a', response: { action: 'accept' }, sentAt: 1 })).toBe('accepted');
    const answers = expireAsk(state);
    expect(answers.responses).toEqual({ a: { action: 'accept' } });
    expect(answers.expired).toEqual(['b']);
    // Nothing for that round is taken afterwards.
    expect(acceptKeyAnswer(state, { round: 1, key: 'b', response: { action: 'accept' }, sentAt: 2 })).toBe('duplicate');
  });

  it('refuses to expire when no ask waits', () => {
    expect(() => expireAsk(initialState('caller'))).toThrow('no awaited ask');
  });
});
