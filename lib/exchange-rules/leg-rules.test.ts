// Pins the decisions a leg of a multi-round-trip call turns on (leg-rules.ts), with no Postgres
// or Temporal: what a leg is, what an answering leg is given the round's records, and what a leg
// that waited gets.
import type { RoundRecord } from '../exchange/types';
import { digestJson } from '../exchange/digest';
import type { RoundOutcome } from '../exchange/types';
import { INVALID_PARAMS } from '../protocol/json-rpc-codes';
import { RpcError } from '../protocol/rpc-error';
import type { RequestStateClaims } from '../state/request-state';
import {
  afterWait,
  answeredWith,
  answersTo,
  awaitedWith,
  classifyAnswer,
  classifyLeg,
  requestDigestOf,
  targetTooLong,
} from './leg-rules';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

function record(round: number, outcome: RoundOutcome, extra: Partial<RoundRecord> = {}): RoundRecord {
  return { exchangeId: 'ex-1', round, outcome, recordedAt: new Date(T0), ...extra };
}

const askFor = (keys: string[], extra: Partial<RoundRecord> = {}) =>
  record(
    1,
    { kind: 'ask', inputRequests: Object.fromEntries(keys.map((k) => [k, { method: 'elicitation/create' }])) },
    {
      deadlineAt: new Date(T0 + 10 * MINUTE),
      ...extra,
    },
  );
const accept = (name: string) => ({ action: 'accept', content: { name } });
const complete = (round: number, answersDigest?: string) =>
  record(round, { kind: 'complete', result: { content: [] } }, answersDigest ? { answersDigest } : {});

function thrown(run: () => unknown): RpcError {
  try {
    run();
  } catch (error) {
    if (error instanceof RpcError) return error;
    throw error;
  }
  throw new Error('expected an RpcError');
}

describe('classifyLeg', () => {
  const claims: RequestStateClaims = { exchangeId: 'ex-1', round: 1, kind: 'ask', requestDigest: 'd', principal: 'p' };

  it('takes a leg without requestState as the first leg', () => {
    expect(classifyLeg(undefined)).toEqual({ kind: 'first' });
  });

  it('takes an ask requestState as an answer, and a wait one as a visit that comes back', () => {
    expect(classifyLeg(claims)).toEqual({ kind: 'answer', claims });
    const wait = { ...claims, kind: 'wait' as const };
    expect(classifyLeg(wait)).toEqual({ kind: 'come-back', claims: wait });
  });
});

describe('requestDigestOf', () => {
  const call = (args: Record<string, unknown>, target = 'greet') => ({
    method: 'tools/call' as const,
    target,
    params: { name: target, arguments: args },
  });

  it('is the same however the arguments are ordered, and differs for other arguments, targets or methods', () => {
    expect(requestDigestOf(call({ a: 1, b: 2 }))).toBe(requestDigestOf(call({ b: 2, a: 1 })));
    expect(requestDigestOf(call({ a: 1 }))).not.toBe(requestDigestOf(call({ a: 2 })));
    expect(requestDigestOf(call({}))).not.toBe(requestDigestOf(call({}, 'other')));
    expect(requestDigestOf(call({}))).not.toBe(
      requestDigestOf({ method: 'prompts/get', target: 'greet', params: { name: 'greet', arguments: {} } }),
    );
  });

  it('digests a resource read, which has no arguments, by its URI', () => {
    const read = (uri: string) => ({ method: 'resources/read' as const, target: uri, params: { uri } });
    expect(requestDigestOf(read('a://1'))).toBe(requestDigestOf(read('a://1')));
    expect(requestDigestOf(read('a://1'))).not.toBe(requestDigestOf(read('a://2')));
  });
});

describe('size budgets', () => {
  it('bounds a target in UTF-8 bytes, naming params.name or params.uri', () => {
    expect(targetTooLong('tools/call', 'x'.repeat(8), 8)).toBeUndefined();
    const name = targetTooLong('tools/call', 'ü'.repeat(5), 8);
    expect(name?.toJson()).toMatchObject({ code: INVALID_PARAMS, data: { path: 'params.name', limit: 8, size: 10 } });
    expect(targetTooLong('resources/read', 'a://toolong', 8)?.toJson()).toMatchObject({
      data: { path: 'params.uri' },
    });
  });
});

describe('answersTo', () => {
  it('keeps only the asked keys, raw, and digests them however they were ordered', () => {
    const asked = { name: {}, age: {} };
    const taken = answersTo(asked, { age: 3, extra: 'ignored', name: accept('Ada') });
    expect(taken.responses).toEqual({ age: 3, name: accept('Ada') });
    expect(taken.digest).toBe(answersTo(asked, { name: accept('Ada'), age: 3 }).digest);
    expect(answersTo(asked, undefined)).toEqual({ responses: {}, digest: digestJson({}) });
  });
});

describe('classifyAnswer', () => {
  const answers = { name: accept('Ada') };
  const digest = answersTo({ name: {} }, answers).digest;
  const beforeDeadline = T0 + MINUTE;
  const afterDeadline = T0 + 11 * MINUTE;

  it('takes fresh answers to an ask nothing answered yet, before its deadline', () => {
    expect(
      classifyAnswer({ ask: askFor(['name']), next: undefined, inputResponses: answers, now: beforeDeadline }),
    ).toEqual({ kind: 'fresh', responses: answers, digest });
  });

  it('takes answers sent exactly at the deadline, and answers to an ask with no deadline', () => {
    const atDeadline = T0 + 10 * MINUTE;
    expect(
      classifyAnswer({ ask: askFor(['name']), next: undefined, inputResponses: answers, now: atDeadline }).kind,
    ).toBe('fresh');
    const ask = askFor(['name'], { deadlineAt: undefined });
    expect(classifyAnswer({ ask, next: undefined, inputResponses: answers, now: afterDeadline }).kind).toBe('fresh');
  });

  it('finds a requestState stale when its round has no ask recorded', () => {
    expect(classifyAnswer({ ask: undefined, next: undefined, inputResponses: answers, now: T0 })).toEqual({
      kind: 'stale',
    });
    expect(classifyAnswer({ ask: complete(1), next: undefined, inputResponses: answers, now: T0 })).toEqual({
      kind: 'stale',
    });
  });

  it('gives a retry of an answered round the outcome its answers led to', () => {
    const next = complete(2, digest);
    expect(classifyAnswer({ ask: askFor(['name']), next, inputResponses: answers, now: beforeDeadline })).toEqual({
      kind: 'retry',
      record: next,
    });
  });

  it('gives a retry the outcome even after the deadline, since its answers were taken in time', () => {
    const next = complete(2, digest);
    expect(classifyAnswer({ ask: askFor(['name']), next, inputResponses: answers, now: afterDeadline }).kind).toBe(
      'retry',
    );
  });

  it('counts answers under keys the ask did not name as the same retry', () => {
    const next = complete(2, digest);
    const withExtra = { ...answers, extra: 1 };
    expect(classifyAnswer({ ask: askFor(['name']), next, inputResponses: withExtra, now: T0 }).kind).toBe('retry');
  });

  it('gives an ending recorded without answers (an expiry, a cancel) to any answers', () => {
    const expired = record(2, { kind: 'error', error: { code: -32001, message: 'expired' } });
    expect(
      classifyAnswer({ ask: askFor(['name']), next: expired, inputResponses: answers, now: afterDeadline }),
    ).toEqual({ kind: 'retry', record: expired });
  });

  it('refuses different answers to a round that was answered already', () => {
    const next = complete(2, digest);
    const other = { name: accept('Grace') };
    expect(classifyAnswer({ ask: askFor(['name']), next, inputResponses: other, now: beforeDeadline })).toEqual({
      kind: 'mismatch',
    });
  });

  it('refuses answers past the deadline of a round nothing answered, with the round timeout it had', () => {
    expect(
      classifyAnswer({ ask: askFor(['name']), next: undefined, inputResponses: answers, now: afterDeadline }),
    ).toEqual({ kind: 'late', deadlineAt: new Date(T0 + 10 * MINUTE), roundTimeoutMs: 10 * MINUTE });
  });
});

describe('answeredWith', () => {
  it('gives the outcome when the digests agree, or either side has none', () => {
    expect(answeredWith(complete(2, 'd1'), 'd1')).toEqual({ kind: 'recorded', record: complete(2, 'd1') });
    expect(answeredWith(complete(2), 'd1').kind).toBe('recorded');
    expect(answeredWith(complete(2, 'd1'), undefined).kind).toBe('recorded');
  });

  it('refuses with -32602 naming the answered round when the digests differ', () => {
    const error = thrown(() => answeredWith(complete(3, 'd1'), 'd2'));
    expect(error.toJson()).toEqual({
      code: INVALID_PARAMS,
      message: 'Round 2 of this exchange was already answered with different inputResponses',
    });
  });
});

describe('afterWait', () => {
  it('says "come back" when nothing ended the exchange, or its ending is of an earlier round', () => {
    expect(afterWait('ex-1', 2, undefined)).toEqual({ kind: 'pending', exchangeId: 'ex-1', round: 2 });
    expect(afterWait('ex-1', 3, complete(2))).toEqual({ kind: 'pending', exchangeId: 'ex-1', round: 3 });
  });

  it('gives the ending Temporal left when it reaches the round waited for', () => {
    const ended = record(3, { kind: 'error', error: { code: -32013, message: 'terminated' } });
    expect(afterWait('ex-1', 2, ended)).toEqual({ kind: 'recorded', record: ended });
    expect(afterWait('ex-1', 3, ended)).toEqual({ kind: 'recorded', record: ended });
  });
});

describe('awaitedWith', () => {
  it('carries the answers digest into "come back", for the visit that comes back', () => {
    const pending = { kind: 'pending' as const, exchangeId: 'ex-1', round: 2 };
    expect(awaitedWith(pending, 'd1')).toEqual({ ...pending, answersDigest: 'd1' });
  });

  it('gives the outcome the answers led to, and refuses one other answers led to', () => {
    expect(awaitedWith({ kind: 'recorded', record: complete(2, 'd1') }, 'd1').kind).toBe('recorded');
    expect(awaitedWith({ kind: 'recorded', record: complete(2, 'd1') }, undefined).kind).toBe('recorded');
    expect(thrown(() => awaitedWith({ kind: 'recorded', record: complete(2, 'd1') }, 'd2')).code).toBe(INVALID_PARAMS);
  });
});
