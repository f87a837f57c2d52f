import { INVALID_PARAMS } from '../protocol/json-rpc-codes';
import {
  answerBytes,
  overRoundInputBudget,
  roundAnswersBytes,
  roundInputBytes,
  roundInputTooLarge,
} from './round-input-size';

describe('round input size', () => {
  it("counts a round's input as arguments, answers and capabilities together, absent parts as nothing", () => {
    const input = { params: { a: 'xx' }, answers: { k: 1 }, clientCapabilities: {} }; // 10 + 7 + 2 bytes
    expect(roundInputBytes(input)).toBe(19);
    expect(roundInputBytes({ ...input, answers: undefined })).toBe(12);
    expect(overRoundInputBudget(19, 19)).toBe(false);
    expect(overRoundInputBudget(19, 18)).toBe(true);
  });

  it('refuses a round over the budget, naming its size and the limit', () => {
    const input = { params: { a: 'xx' }, answers: { k: 1 }, clientCapabilities: {} };
    expect(roundInputTooLarge(input, 19)).toBeUndefined();
    const refusal = roundInputTooLarge(input, 18);
    expect(refusal?.kind).toBe('tooLarge');
    expect(refusal?.toJson()).toMatchObject({ code: INVALID_PARAMS, data: { path: 'params', limit: 18, size: 19 } });
  });

  it('counts UTF-8 bytes, and an absent answer as null', () => {
    expect(answerBytes({ text: 'é' })).toBe(Buffer.byteLength('{"text":"é"}'));
    expect(answerBytes(undefined)).toBe('null'.length);
  });

  it('adds the incoming answer to the answers already taken for the other keys', () => {
    const taken = [
      { key: 'roots', response: { roots: [] } },
      { key: 'summary', response: { text: 'é' } },
    ];
    expect(roundAnswersBytes({ a: 1 }, taken, 'approval')).toBe(
      '{"a":1}'.length + '{"roots":[]}'.length + Buffer.byteLength('{"text":"é"}'),
    );
  });

  it('does not count a key twice when its answer is the one coming in', () => {
    expect(roundAnswersBytes({ roots: [] }, [{ key: 'roots', response: { roots: [] } }], 'roots')).toBe(
      '{"roots":[]}'.length,
    );
    expect(roundAnswersBytes(undefined, [], 'k')).toBe('null'.length);
  });
});
