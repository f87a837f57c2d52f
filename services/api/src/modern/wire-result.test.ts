// Pins how a leg's outcome becomes the 2026-07-28 wire result, and that every requestState it
// mints opens again under the same binding.
import { randomBytes } from 'node:crypto';
import { EXCHANGE_EXPIRED } from '../../../../lib/protocol/exchange-errors';
import { SERVER_INFO_META_KEY } from '../../../../lib/protocol/modern';
import { RpcError } from '../../../../lib/protocol/rpc-error';
import { createRequestStateCodec } from '../../../../lib/state/request-state';
import { createSealer } from '../../../../lib/state/sealer';
import type { RoundRecord } from '../../../../lib/exchange/types';
import { renderLeg } from './wire-result';

const codec = createRequestStateCodec(createSealer([{ kid: 'k1', key: randomBytes(32) }]), 60_000);
const binding = { requestDigest: 'digest', principal: 'ada' };
const count = { legs: 1, waits: 0 };
const record = (round: number, outcome: RoundRecord['outcome']): RoundRecord => ({
  exchangeId: 'ex-1',
  round,
  outcome,
  recordedAt: new Date(),
});

describe('renderLeg', () => {
  it('renders a complete outcome with resultType and the server identity', () => {
    const wire = renderLeg(
      { kind: 'recorded', record: record(2, { kind: 'complete', result: { content: [] } }), binding, count },
      codec,
    );
    expect(wire).toMatchObject({ resultType: 'complete', content: [] });
    expect((wire._meta as Record<string, unknown>)[SERVER_INFO_META_KEY]).toBeDefined();
    expect(wire.requestState).toBeUndefined();
  });

  it('renders an ask with its inputRequests and an ask requestState bound to the round, without the handler state', () => {
    const wire = renderLeg(
      {
        kind: 'recorded',
        record: record(1, {
          kind: 'ask',
          inputRequests: { name: { method: 'elicitation/create' } },
          sealedHandlerState: 'sealed',
        }),
        binding,
        count,
      },
      codec,
    );
    expect(wire).toMatchObject({
      resultType: 'input_required',
      inputRequests: { name: { method: 'elicitation/create', params: {} } },
    });
    const claims = codec.verify(wire.requestState as string, binding);
    expect(claims).toEqual({ exchangeId: 'ex-1', round: 1, kind: 'ask', ...binding, ...count });
  });

  it('sends an embedded request recorded without params with params {}, and leaves the record as it was', () => {
    const outcome: RoundRecord['outcome'] = {
      kind: 'ask',
      inputRequests: {
        roots: { method: 'roots/list' },
        name: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object' } } },
      },
    };
    const wire = renderLeg({ kind: 'recorded', record: record(1, outcome), binding, count }, codec);
    expect(wire.inputRequests).toEqual({
      roots: { method: 'roots/list', params: {} },
      name: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object' } } },
    });
    expect(outcome.inputRequests).toEqual({
      roots: { method: 'roots/list' },
      name: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object' } } },
    });
  });

  it('renders an ask with nothing for the caller to answer with inputRequests {} and its requestState', () => {
    const wire = renderLeg(
      { kind: 'recorded', record: record(3, { kind: 'ask', inputRequests: {} }), binding, count },
      codec,
    );
    expect(wire).toMatchObject({ resultType: 'input_required', inputRequests: {} });
    expect(codec.verify(wire.requestState as string, binding)).toMatchObject({ kind: 'ask', round: 3 });
  });

  it('renders "not ready" as a state-only result (inputRequests {}) whose wait requestState carries the answers digest', () => {
    const wire = renderLeg(
      { kind: 'pending', exchangeId: 'ex-1', round: 2, answersDigest: 'answers', binding, count },
      codec,
      17,
    );
    // `{}`, not absent: a client that reads a result without inputRequests as final (the Go SDK) retries.
    expect(wire).toMatchObject({ resultType: 'input_required', inputRequests: {} });
    expect(Object.keys(wire).sort()).toEqual(['_meta', 'inputRequests', 'requestState', 'resultType']);
    expect(codec.verify(wire.requestState as string, binding)).toMatchObject({
      kind: 'wait',
      round: 2,
      answersDigest: 'answers',
      afterEvent: 17,
    });
  });

  it('throws an error outcome as the RpcError it carries', () => {
    const leg = {
      kind: 'recorded' as const,
      record: record(2, { kind: 'error', error: { code: EXCHANGE_EXPIRED, message: 'expired', data: { round: 1 } } }),
      binding,
      count,
    };
    expect(() => renderLeg(leg, codec)).toThrow(RpcError);
    try {
      renderLeg(leg, codec);
    } catch (error) {
      expect((error as RpcError).toJson()).toEqual({ code: EXCHANGE_EXPIRED, message: 'expired', data: { round: 1 } });
    }
  });

  it('mints state another principal cannot use', () => {
    const wire = renderLeg({ kind: 'pending', exchangeId: 'ex-1', round: 1, binding, count }, codec);
    expect(() => codec.verify(wire.requestState as string, { ...binding, principal: 'mallory' })).toThrow();
  });
});
