import type { RoundSummary } from '../exchange/types';
import type { Addressing, AnswererIdentity, QuestionAnswer } from '../questions/question';
import { acceptQuestion, initialState, recordRound, takeAnswers } from './exchange-state';

const ISSUER = 'https://id.example.com';
const CALLER = `${ISSUER}|caller`;
const who = (subject: string, groups: string[] = []): AnswererIdentity => ({
  id: `${ISSUER}|${subject}`,
  issuer: ISSUER,
  subject,
  scopes: [],
  groups,
});
const ask = (questions: Record<string, Addressing>, deadlineAt = 10_000): RoundSummary => ({
  round: 1,
  kind: 'ask',
  askKeys: Object.keys(questions),
  ask: { askedAt: 0, requests: [] },
  status: 'running',
  deadlineAt,
  questions,
});
let next = 0;
const answer = (by: AnswererIdentity, extra: Partial<QuestionAnswer> = {}): QuestionAnswer => ({
  round: 1,
  key: 'approval',
  answerId: `a${(next += 1)}`,
  response: { action: 'accept', content: { ok: true } },
  by,
  via: 'api',
  sentAt: 1_000,
  ...extra,
});
const toManagers: Addressing = { anyOf: [{ group: 'managers' }], excludeCaller: true };

describe('an exchange taking answers to its questions', () => {
  it('takes the first admitted answer as the key answer, with who gave it', () => {
    const state = initialState(CALLER);
    recordRound(state, ask({ approval: toManagers }));
    expect(acceptQuestion(state, answer(who('mallory')))).toBe('not-addressed');
    expect(state.pending).toBeUndefined();
    expect(acceptQuestion(state, answer(who('ann', ['managers'])))).toBe('decided');
    const taken = takeAnswers(state);
    expect(taken.responses).toEqual({ approval: { action: 'accept', content: { ok: true } } });
    expect(taken.answeredBy?.approval).toEqual([
      { principal: { id: `${ISSUER}|ann`, subject: 'ann', issuer: ISSUER }, at: 1_000, via: 'api', action: 'accept' },
    ]);
  });

  it('refuses the caller where excluded, an answer after the deadline, and a second answer', () => {
    const state = initialState(CALLER);
    recordRound(state, ask({ approval: toManagers }));
    expect(acceptQuestion(state, answer({ ...who('caller', ['managers']), id: CALLER }))).toBe('caller-excluded');
    expect(acceptQuestion(state, answer(who('ann', ['managers']), { sentAt: 10_001 }))).toBe('late');
    const first = answer(who('ann', ['managers']));
    expect(acceptQuestion(state, first)).toBe('decided');
    expect(acceptQuestion(state, first)).toBe('duplicate');
    // The key is answered: a later answer from another manager changes nothing.
    expect(acceptQuestion(state, answer(who('bob', ['managers'])))).toBe('closed');
    expect(takeAnswers(state).answeredBy?.approval).toHaveLength(1);
  });

  it('judges a question’s requireSignIn at the answer’s sentAt, from the sign-in the answer carries', () => {
    const state = initialState(CALLER);
    const sentAtS = 1; // answer() sends at 1_000 ms
    recordRound(
      state,
      ask({ approval: { anyOf: [{ group: 'managers' }], requireSignIn: { maxAgeS: 60, amr: ['mfa'] } } }),
    );
    const ann = who('ann', ['managers']);
    expect(acceptQuestion(state, answer({ ...ann, kind: 'person', amr: ['pwd'], authTime: sentAtS }))).toBe(
      'step-up-required',
    );
    const bot: AnswererIdentity = { ...who('bot', ['managers']), kind: 'service', clientId: 'bot' };
    expect(acceptQuestion(state, answer({ ...bot, amr: ['mfa'], authTime: sentAtS }))).toBe('step-up-required');
    expect(state.pending).toBeUndefined();
    expect(acceptQuestion(state, answer({ ...ann, kind: 'person', amr: ['mfa'], authTime: sentAtS }))).toBe('decided');
  });

  it('waits for each of two approvals, and completes the round only then', () => {
    const state = initialState(CALLER);
    recordRound(state, ask({ approval: { eachOf: [{ group: 'finance' }, { group: 'legal' }] } }));
    expect(acceptQuestion(state, answer(who('fin', ['finance'])))).toBe('taken');
    expect(state.pending).toBeUndefined();
    expect(acceptQuestion(state, answer(who('lee', ['legal'])))).toBe('decided');
    expect(takeAnswers(state).answeredBy?.approval).toHaveLength(2);
  });

  it('holds an answer that arrives before its ask is folded in, and applies it then', () => {
    const state = initialState(CALLER);
    expect(acceptQuestion(state, answer(who('ann', ['managers'])))).toBe('held');
    expect(state.pending).toBeUndefined();
    recordRound(state, ask({ approval: toManagers }));
    expect(state.pending?.responses.approval).toEqual({ action: 'accept', content: { ok: true } });
  });

  it('drops a held answer its ask does not admit', () => {
    const state = initialState(CALLER);
    acceptQuestion(state, answer(who('mallory')));
    recordRound(state, ask({ approval: toManagers }));
    expect(state.pending).toBeUndefined();
  });

  it('ignores answers to an ask that is over, or to a key that is not a question', () => {
    const state = initialState(CALLER);
    recordRound(state, ask({ approval: toManagers }));
    expect(acceptQuestion(state, answer(who('ann', ['managers']), { key: 'other' }))).toBe('unexpected');
    acceptQuestion(state, answer(who('ann', ['managers'])));
    takeAnswers(state);
    recordRound(state, { round: 2, kind: 'complete', status: 'completed' });
    expect(acceptQuestion(state, answer(who('bob', ['managers'])))).toBe('duplicate');
  });
});
