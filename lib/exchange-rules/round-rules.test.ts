import { randomBytes } from 'node:crypto';
import { createHandlerStateCodec } from '../state/handler-state';
import { SealError, createSealer } from '../state/sealer';
import { applyAskRules, openHandlerState, roundResponses } from './round-rules';

const handlerState = createHandlerStateCodec(createSealer([{ kid: 'k1', key: randomBytes(32) }]));
const elicit = { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object' } } };
const rules = {
  exchangeId: 'x1',
  round: 2,
  maxRounds: 3,
  capabilities: { elicitation: {} },
  mayAsk: true,
  handlerState,
  roundTimeoutMs: 600_000,
  maxQuestionWaitMs: 604_800_000,
};

describe('applyAskRules', () => {
  it('leaves results and errors as they are', () => {
    const complete = { kind: 'complete' as const, result: { content: [] } };
    expect(applyAskRules(complete, { ...rules, mayAsk: false, capabilities: {} })).toBe(complete);
  });

  it('refuses an ask the client did not declare the capability for, before the round cap', () => {
    const outcome = applyAskRules(
      { kind: 'ask', inputRequests: { q: elicit } },
      { ...rules, capabilities: {}, mayAsk: false },
    );
    expect(outcome).toMatchObject({
      kind: 'error',
      error: { code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } },
    });
  });

  it('ends the exchange with -32011 once it has used its asks', () => {
    const outcome = applyAskRules({ kind: 'ask', inputRequests: { q: elicit } }, { ...rules, mayAsk: false });
    expect(outcome).toEqual({
      kind: 'error',
      error: {
        code: -32011,
        message: 'Exchange ended: the handler asked for input more than 3 times',
        data: { exchangeId: 'x1', maxRounds: 3 },
      },
    });
  });

  it("seals the handler's state for the next round of the same exchange only", () => {
    const outcome = applyAskRules({ kind: 'ask', inputRequests: { q: elicit }, sealedHandlerState: 'step-2' }, rules);
    if (outcome.kind !== 'ask') throw new Error('expected an ask');
    expect(outcome.sealedHandlerState).not.toContain('step-2');
    expect(openHandlerState(handlerState, outcome.sealedHandlerState, { exchangeId: 'x1', round: 3 })).toBe('step-2');
    expect(() => openHandlerState(handlerState, outcome.sealedHandlerState, { exchangeId: 'x1', round: 4 })).toThrow(
      SealError,
    );
    expect(() => openHandlerState(handlerState, outcome.sealedHandlerState, { exchangeId: 'x2', round: 3 })).toThrow(
      SealError,
    );
  });
});

describe('roundResponses', () => {
  it("gives round 1 the first leg's answers, and later rounds only their own", () => {
    const exchange = { initialResponses: { early: { action: 'accept' } } };
    expect(roundResponses(exchange, 1, undefined)).toEqual(exchange.initialResponses);
    expect(roundResponses(exchange, 2, undefined)).toEqual({});
    expect(roundResponses(exchange, 2, { q: 1 })).toEqual({ q: 1 });
  });
});
