// Pins the exchange round bookkeeping: which answers are taken, the ask cap, and the state transitions.
import type { RoundAnswers, RoundSummary } from '../exchange/types';
import {
  acceptAnswers,
  acceptKeyAnswer,
  answerStanding,
  initialState,
  mayAsk,
  recordRound,
  requestCancel,
  takeAnswers,
  type ExchangeState,
} from './exchange-state';

const answers = (round: number, value = 'x'): RoundAnswers => ({
  round,
  responses: { name: { action: 'accept', content: { value } } },
  digest: `d-${round}-${value}`,
});
const ask = (round: number): RoundSummary => ({ round, kind: 'ask', askKeys: ['name'] });

/** A state whose round-`round` ask is awaiting answers. */
function awaitingRound(round: number): ExchangeState {
  const state = initialState();
  for (let r = 1; r <= round; r += 1) {
    recordRound(state, ask(r));
    if (r < round) {
      expect(acceptAnswers(state, answers(r))).toBe('accepted');
      takeAnswers(state);
    }
  }
  return state;
}

describe('initialState', () => {
  it('starts running at round 0 with no asks, nothing awaited and nothing pending', () => {
    expect(initialState()).toEqual({ round: 0, asks: 0, status: 'running' });
    expect(initialState().cancelRequested).toBeUndefined();
  });
});

describe('acceptAnswers', () => {
  it('accepts the first answers to the awaited round and holds them as pending', () => {
    const state = awaitingRound(1);
    const first = answers(1, 'first');
    expect(acceptAnswers(state, first)).toBe('accepted');
    expect(state.pending).toBe(first);
  });

  it('reports a second delivery for the awaited round as duplicate and keeps the first answers', () => {
    const state = awaitingRound(1);
    const first = answers(1, 'first');
    acceptAnswers(state, first);
    expect(acceptAnswers(state, answers(1, 'second'))).toBe('duplicate');
    expect(state.pending).toBe(first);
  });

  it('reports answers for an older round as duplicate and does not take them', () => {
    const state = awaitingRound(3);
    expect(acceptAnswers(state, answers(2))).toBe('duplicate');
    expect(acceptAnswers(state, answers(1))).toBe('duplicate');
    expect(state.pending).toBeUndefined();
  });

  it('reports answers for a future round as unexpected and does not take them', () => {
    const state = awaitingRound(2);
    expect(acceptAnswers(state, answers(3))).toBe('unexpected');
    expect(state.pending).toBeUndefined();
  });

  it('holds answers that arrive while their ask is still being recorded, and keeps them through recordRound', () => {
    const state = initialState();
    const early = answers(1);
    expect(acceptAnswers(state, early)).toBe('accepted');
    recordRound(state, ask(1));
    expect(state.pending).toBe(early);
    expect(state.awaiting).toBe(1);
  });

  it('drops held answers when the round they answer ends without an ask', () => {
    const state = initialState();
    acceptAnswers(state, answers(1));
    recordRound(state, { round: 1, kind: 'complete' });
    expect(state.pending).toBeUndefined();
  });

  it('reports answers two rounds ahead as unexpected', () => {
    const state = initialState();
    expect(acceptAnswers(state, answers(2))).toBe('unexpected');
    expect(state.pending).toBeUndefined();
  });

  it('reports a redelivery of answers already handed to the next round as duplicate', () => {
    const state = awaitingRound(1);
    acceptAnswers(state, answers(1));
    takeAnswers(state);
    expect(acceptAnswers(state, answers(1))).toBe('duplicate');
    expect(state.pending).toBeUndefined();
  });
});

describe('mayAsk', () => {
  it.each([1, 3, 8])('allows exactly maxRounds (%i) asks and refuses the next one', (maxRounds) => {
    const state = initialState();
    let allowed = 0;
    for (let round = 1; round <= maxRounds + 5 && mayAsk(state, maxRounds); round += 1) {
      allowed += 1;
      recordRound(state, ask(round));
      acceptAnswers(state, answers(round));
      takeAnswers(state);
    }
    expect(allowed).toBe(maxRounds);
    expect(state.asks).toBe(maxRounds);
    expect(mayAsk(state, maxRounds)).toBe(false);
  });

  it('does not count complete or error outcomes as asks', () => {
    const completed = initialState();
    recordRound(completed, { round: 1, kind: 'complete' });
    const failed = initialState();
    recordRound(failed, { round: 1, kind: 'error', errorCode: -32603 });
    expect(completed.asks).toBe(0);
    expect(failed.asks).toBe(0);
    expect(mayAsk(completed, 1)).toBe(true);
    expect(mayAsk(failed, 1)).toBe(true);
  });
});

describe('recordRound', () => {
  it('records an ask: advances the round, counts the ask, awaits that round and stays running', () => {
    const state = initialState();
    recordRound(state, ask(1));
    expect(state).toEqual({ round: 1, asks: 1, awaiting: 1, askKeys: ['name'], pending: undefined, status: 'running' });
  });

  it('records a complete outcome: stops awaiting and marks the exchange completed', () => {
    const state = awaitingRound(1);
    acceptAnswers(state, answers(1));
    takeAnswers(state);
    recordRound(state, { round: 2, kind: 'complete' });
    expect(state.round).toBe(2);
    expect(state.awaiting).toBeUndefined();
    expect(state.status).toBe('completed');
    expect(state.asks).toBe(1);
  });

  it('records an error outcome: stops awaiting and marks the exchange failed', () => {
    const state = initialState();
    recordRound(state, { round: 1, kind: 'error', errorCode: -32602 });
    expect(state.round).toBe(1);
    expect(state.awaiting).toBeUndefined();
    expect(state.status).toBe('failed');
  });

  it('clears answers still pending when a new outcome is recorded', () => {
    const state = awaitingRound(1);
    acceptAnswers(state, answers(1));
    recordRound(state, ask(2));
    expect(state.pending).toBeUndefined();
    expect(state.awaiting).toBe(2);
    expect(acceptAnswers(state, answers(2))).toBe('accepted');
  });
});

describe('takeAnswers', () => {
  it('returns the accepted answers and clears both the pending answers and the wait', () => {
    const state = awaitingRound(2);
    const taken = answers(2, 'mine');
    acceptAnswers(state, taken);
    expect(takeAnswers(state)).toBe(taken);
    expect(state.pending).toBeUndefined();
    expect(state.awaiting).toBeUndefined();
    expect(state.round).toBe(2);
    expect(state.status).toBe('running');
  });

  it('throws when no answers have been accepted', () => {
    const state = awaitingRound(1);
    expect(() => takeAnswers(state)).toThrow(/no accepted answers/);
  });
});

describe('round deadlines', () => {
  const DEADLINE = 1_000_000;
  const askWithDeadline = (round: number): RoundSummary => ({
    round,
    kind: 'ask',
    askKeys: ['name'],
    status: 'running',
    deadlineAt: DEADLINE,
  });
  const sent = (round: number, sentAt: number): RoundAnswers => ({ ...answers(round), sentAt });

  it('takes answers signalled at or before the deadline', () => {
    const state = initialState();
    recordRound(state, askWithDeadline(1));
    expect(acceptAnswers(state, sent(1, DEADLINE))).toBe('accepted');
  });

  it('refuses answers signalled after the deadline as late', () => {
    const state = initialState();
    recordRound(state, askWithDeadline(1));
    expect(acceptAnswers(state, sent(1, DEADLINE + 1))).toBe('late');
    expect(state.pending).toBeUndefined();
  });

  it('drops late answers that arrived while the ask was still being recorded', () => {
    const state = initialState();
    expect(acceptAnswers(state, sent(1, DEADLINE + 1))).toBe('accepted'); // the deadline is not known yet
    recordRound(state, askWithDeadline(1));
    expect(state.pending).toBeUndefined();
  });

  it('keeps in-time answers that arrived while the ask was still being recorded', () => {
    const state = initialState();
    acceptAnswers(state, sent(1, DEADLINE - 5));
    recordRound(state, askWithDeadline(1));
    expect(state.pending?.round).toBe(1);
  });

  it('refuses a late legacy key answer, so the round cannot complete', () => {
    const state = initialState();
    recordRound(state, { ...askWithDeadline(1), askKeys: ['a', 'b'] });
    expect(acceptKeyAnswer(state, { round: 1, key: 'a', response: 1, sentAt: DEADLINE - 1 })).toBe('accepted');
    expect(acceptKeyAnswer(state, { round: 1, key: 'b', response: 2, sentAt: DEADLINE + 1 })).toBe('late');
    expect(state.pending).toBeUndefined();
  });

  it('drops held key answers when one of them was signalled after the deadline', () => {
    const state = initialState();
    acceptKeyAnswer(state, { round: 1, key: 'a', response: 1, sentAt: DEADLINE - 1 });
    acceptKeyAnswer(state, { round: 1, key: 'b', response: 2, sentAt: DEADLINE + 1 });
    recordRound(state, { ...askWithDeadline(1), askKeys: ['a', 'b'] });
    expect(state.pending).toBeUndefined();
    expect(state.partial).toBeUndefined();
  });

  it('takes answers without a signal time (no deadline known to them) as in time', () => {
    const state = initialState();
    recordRound(state, askWithDeadline(1));
    expect(acceptAnswers(state, answers(1))).toBe('accepted');
  });

  it('takes the status an ending summary carries', () => {
    const state = awaitingRound(1);
    recordRound(state, { round: 2, kind: 'error', errorCode: -32011, status: 'capped' });
    expect(state.status).toBe('capped');
    expect(acceptAnswers(state, answers(2))).toBe('duplicate');
  });
});

describe('acceptKeyAnswer (legacy answers, one key at a time)', () => {
  const twoKeyAsk = (round: number): RoundSummary => ({ round, kind: 'ask', askKeys: ['roots', 'summary'] });

  it('makes the round pending only once every asked key is answered', () => {
    const state = initialState();
    recordRound(state, twoKeyAsk(1));
    expect(acceptKeyAnswer(state, { round: 1, key: 'roots', response: { roots: [] } })).toBe('accepted');
    expect(state.pending).toBeUndefined();
    expect(acceptKeyAnswer(state, { round: 1, key: 'summary', response: { role: 'assistant' } })).toBe('accepted');
    expect(state.pending?.responses).toEqual({ roots: { roots: [] }, summary: { role: 'assistant' } });
  });

  it('keeps the first answer to a key and reports a repeat as duplicate', () => {
    const state = initialState();
    recordRound(state, twoKeyAsk(1));
    acceptKeyAnswer(state, { round: 1, key: 'roots', response: 'first' });
    expect(acceptKeyAnswer(state, { round: 1, key: 'roots', response: 'second' })).toBe('duplicate');
    acceptKeyAnswer(state, { round: 1, key: 'summary', response: 's' });
    expect(state.pending?.responses.roots).toBe('first');
  });

  it('holds key answers that arrive before their ask is folded in', () => {
    const state = initialState();
    acceptKeyAnswer(state, { round: 1, key: 'roots', response: 'r' });
    acceptKeyAnswer(state, { round: 1, key: 'summary', response: 's' });
    expect(state.pending).toBeUndefined();
    recordRound(state, twoKeyAsk(1));
    expect(state.pending?.round).toBe(1);
  });

  it('reports an answer to an older round as duplicate', () => {
    const state = initialState();
    recordRound(state, twoKeyAsk(1));
    acceptKeyAnswer(state, { round: 1, key: 'roots', response: 'r' });
    acceptKeyAnswer(state, { round: 1, key: 'summary', response: 's' });
    takeAnswers(state);
    expect(acceptKeyAnswer(state, { round: 1, key: 'roots', response: 'again' })).toBe('duplicate');
  });
});

describe('requestCancel', () => {
  it('flags a running exchange and leaves a finished one alone', () => {
    const running = initialState();
    requestCancel(running);
    expect(running.cancelRequested).toBe(true);
    const finished = initialState();
    recordRound(finished, { round: 1, kind: 'complete' });
    requestCancel(finished);
    expect(finished.cancelRequested).toBeUndefined();
  });
});

describe('answers that arrive before their round has asked (a retried workflow task)', () => {
  const allow = (lastRound = 8) => ({ allowed: () => true, lastRound });
  const twoKeyAsk = (round: number): RoundSummary => ({ round, kind: 'ask', askKeys: ['a', 'b'] });

  /** Round 1 answered and its answers pending, then round 2's answers in the same activation: the issue's case. */
  function secondAnswersWithFirst(): ExchangeState {
    const state = awaitingRound(1);
    expect(acceptAnswers(state, answers(1))).toBe('accepted');
    expect(acceptAnswers(state, answers(2, 'second'), allow())).toBe('held');
    return state;
  }

  it('holds them, and applies them once their ask is folded in', () => {
    const state = secondAnswersWithFirst();
    expect(takeAnswers(state).round).toBe(1);
    expect(state.pending).toBeUndefined();
    recordRound(state, ask(2));
    expect(state.pending).toEqual(answers(2, 'second'));
    expect(state.ahead).toBeUndefined();
  });

  it('holds answers several rounds ahead, each applied at its own round', () => {
    const state = secondAnswersWithFirst();
    expect(acceptAnswers(state, answers(3, 'third'), allow())).toBe('held');
    takeAnswers(state);
    recordRound(state, ask(2));
    expect(takeAnswers(state)).toEqual(answers(2, 'second'));
    recordRound(state, ask(3));
    expect(takeAnswers(state)).toEqual(answers(3, 'third'));
  });

  it('keeps the first held answers to a round and reports a repeat as duplicate', () => {
    const state = secondAnswersWithFirst();
    expect(acceptAnswers(state, answers(2, 'again'), allow())).toBe('duplicate');
    takeAnswers(state);
    recordRound(state, ask(2));
    expect(state.pending?.digest).toBe('d-2-second');
  });

  it('refuses them as unexpected where the policy does not allow holding (a history from before it), asking it only then', () => {
    const asked: number[] = [];
    const state = awaitingRound(1);
    acceptAnswers(state, answers(1), { allowed: () => (asked.push(1), false), lastRound: 8 });
    expect(asked).toEqual([]);
    expect(acceptAnswers(state, answers(2), { allowed: () => (asked.push(2), false), lastRound: 8 })).toBe(
      'unexpected',
    );
    expect(asked).toEqual([2]);
    expect(state.ahead).toBeUndefined();
  });

  it('refuses answers to a round past the round cap, which no exchange can ask', () => {
    const state = awaitingRound(1);
    expect(acceptAnswers(state, answers(3), allow(2))).toBe('unexpected');
    expect(acceptKeyAnswer(state, { round: 3, key: 'a', response: 1 }, allow(2))).toBe('unexpected');
    expect(state.ahead).toBeUndefined();
  });

  it('refuses held answers signalled after the deadline of the ask they answer', () => {
    const state = secondAnswersWithFirst();
    const late = initialState();
    recordRound(late, ask(1));
    acceptAnswers(late, answers(1));
    acceptAnswers(late, { ...answers(2), sentAt: 2_000 }, allow());
    takeAnswers(late);
    recordRound(late, { ...ask(2), deadlineAt: 1_000 });
    expect(late.pending).toBeUndefined();
    takeAnswers(state);
    recordRound(state, { ...ask(2), deadlineAt: 1_000 });
    expect(state.pending?.round).toBe(2); // no signal time: in time
  });

  it('drops held answers when their round ends without an ask', () => {
    const state = secondAnswersWithFirst();
    takeAnswers(state);
    recordRound(state, { round: 2, kind: 'complete' });
    expect(state.ahead).toBeUndefined();
    expect(state.pending).toBeUndefined();
  });

  it('holds key answers ahead and completes the round with the asked keys only', () => {
    const state = initialState();
    recordRound(state, twoKeyAsk(1));
    acceptKeyAnswer(state, { round: 1, key: 'a', response: 1 });
    acceptKeyAnswer(state, { round: 1, key: 'b', response: 2 });
    expect(acceptKeyAnswer(state, { round: 2, key: 'a', response: 'a2' }, allow())).toBe('held');
    expect(acceptKeyAnswer(state, { round: 2, key: 'a', response: 'again' }, allow())).toBe('duplicate');
    expect(acceptKeyAnswer(state, { round: 2, key: 'z', response: 'never asked' }, allow())).toBe('held');
    expect(acceptKeyAnswer(state, { round: 2, key: 'b', response: 'b2' }, allow())).toBe('held');
    takeAnswers(state);
    recordRound(state, twoKeyAsk(2));
    expect(state.pending?.responses).toEqual({ a: 'a2', b: 'b2' });
  });

  it('leaves a round whose held key answers are incomplete waiting for the rest', () => {
    const state = initialState();
    recordRound(state, twoKeyAsk(1));
    acceptKeyAnswer(state, { round: 1, key: 'a', response: 1 });
    acceptKeyAnswer(state, { round: 1, key: 'b', response: 2 });
    acceptKeyAnswer(state, { round: 2, key: 'a', response: 'a2' }, allow());
    takeAnswers(state);
    recordRound(state, twoKeyAsk(2));
    expect(state.pending).toBeUndefined();
    expect(acceptKeyAnswer(state, { round: 2, key: 'b', response: 'b2' })).toBe('accepted');
    expect(state.pending?.responses).toEqual({ a: 'a2', b: 'b2' });
  });
});

describe('acceptKeyAnswer for a key the awaited ask did not ask', () => {
  it('refuses it as unexpected', () => {
    const state = initialState();
    recordRound(state, { round: 1, kind: 'ask', askKeys: ['a'] });
    expect(acceptKeyAnswer(state, { round: 1, key: 'z', response: 1 })).toBe('unexpected');
    expect(state.partial).toBeUndefined();
  });
});

describe('answerStanding (what the API asks before delivering answers again)', () => {
  it('says missing while the awaited round has no answers, held once they are in, taken once a round took them', () => {
    const state = awaitingRound(1);
    expect(answerStanding(state, 1)).toBe('missing');
    acceptAnswers(state, answers(1));
    expect(answerStanding(state, 1)).toBe('held');
    takeAnswers(state);
    expect(answerStanding(state, 1)).toBe('taken');
  });

  it('tells one key of a legacy ask from another', () => {
    const state = initialState();
    recordRound(state, { round: 1, kind: 'ask', askKeys: ['a', 'b'] });
    acceptKeyAnswer(state, { round: 1, key: 'a', response: 1 });
    expect([answerStanding(state, 1, 'a'), answerStanding(state, 1, 'b')]).toEqual(['held', 'missing']);
  });

  it('counts answers held ahead of their ask', () => {
    const state = awaitingRound(1);
    acceptAnswers(state, answers(1));
    acceptAnswers(state, answers(2), { allowed: () => true, lastRound: 8 });
    acceptKeyAnswer(state, { round: 3, key: 'a', response: 1 }, { allowed: () => true, lastRound: 8 });
    expect([answerStanding(state, 2), answerStanding(state, 3, 'a'), answerStanding(state, 3)]).toEqual([
      'held',
      'held',
      'missing',
    ]);
  });

  it('says ended once the exchange has ended', () => {
    const state = initialState();
    recordRound(state, { round: 1, kind: 'complete' });
    expect(answerStanding(state, 1)).toBe('ended');
  });
});
