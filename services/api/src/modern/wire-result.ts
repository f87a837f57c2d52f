/**
 * Turns a leg's result into the 2026-07-28 wire result: `resultType` on every result, the
 * server's identity in result `_meta`, and every requestState sealed by the API.
 */
import { SERVER_INFO, SERVER_INFO_META_KEY } from '../../../../lib/protocol/modern';
import type { RequestStateCodec } from '../../../../lib/state/request-state';
import { errorOf, type LegResult } from '../exchange-legs/exchange-legs';
import { createdTask } from '../tasks/task-view';
import { pendingResult, withdrawnResult } from '../../../../lib/questions/pending-result';
import { stateOnlyResult, wireInputRequests } from '../../../../lib/protocol/wire-asks';

type WireResult = Record<string, unknown>;

export function withServerInfo(result: WireResult): WireResult {
  const meta = (result._meta as Record<string, unknown> | undefined) ?? {};
  return { ...result, _meta: { ...meta, [SERVER_INFO_META_KEY]: SERVER_INFO } };
}

export function complete(result: WireResult): WireResult {
  return withServerInfo({ ...result, resultType: 'complete' });
}

/** Every requestState is bound to what the leg was verified or started with (`leg.binding`). */
export function renderLeg(leg: LegResult, codec: RequestStateCodec, afterEvent?: number): WireResult {
  const { binding } = leg;
  // What its client's loop has been sent, this result included (client-patience.ts).
  const count = {
    legs: leg.count.legs,
    waits: leg.count.waits,
    ...(leg.count.joined ? { joined: true as const } : {}),
  };
  if (leg.kind === 'outlasted') {
    const { tool, exchangeId: handle, on, repeatReattaches } = leg;
    return complete(leg.withdrawn ? withdrawnResult(tool, on) : pendingResult({ tool, handle, on, repeatReattaches }));
  }
  if (leg.kind === 'pending') {
    // Not ready within the wait budget: a state-only result tells the client to come back.
    const requestState = codec.mint({
      exchangeId: leg.exchangeId,
      round: leg.round,
      kind: 'wait',
      ...binding,
      ...count,
      ...(leg.answersDigest !== undefined ? { answersDigest: leg.answersDigest } : {}),
      ...(afterEvent ? { afterEvent } : {}),
    });
    return withServerInfo(stateOnlyResult(requestState));
  }
  // A task: its seed state, and no requestState (SEP-2663 keeps requestState off the task wire).
  if (leg.kind === 'task') return withServerInfo({ resultType: 'task', ...createdTask(leg.task) });
  const { record } = leg;
  const error = errorOf(record);
  if (error) throw error;
  if (record.outcome.kind === 'complete') return complete(record.outcome.result);
  if (record.outcome.kind !== 'ask') throw new Error('unreachable');
  // A pointer to this ask; the handler's own state stays with the workflow. `inputRequests` is
  // always there, `{}` when nothing is the caller's to answer, for the same clients.
  const requestState = codec.mint({
    exchangeId: record.exchangeId,
    round: record.round,
    kind: 'ask',
    ...binding,
    ...count,
  });
  return withServerInfo({
    resultType: 'input_required',
    inputRequests: wireInputRequests(record.outcome.inputRequests),
    requestState,
  });
}
