/**
 * One round of an exchange that forwards to an upstream, whatever it forwards (a tool's call, a
 * prompt's get, a resource's read): the upstream's method is called once (with the answers to its
 * last ask and its own `requestState`), and whatever it answers is the round's outcome. An upstream
 * `InputRequiredResult` is the round's ask; its `requestState` becomes the handler's state, so the
 * service seals it (AES-GCM, bound to the exchange and round) and no client ever sees it bare. A
 * state-only answer ("come back", no requests) is followed at once, up to `MAX_STATE_ONLY_RESULTS`
 * in a row. Re-entry stays re-execution: the upstream repeats the call from the top with the
 * answers, as the 2026-07-28 revision has every server do.
 *
 * What the caller gets when the upstream cannot answer: its JSON-RPC error passed on as the
 * exchange's error (the message naming the upstream); a failure to reach it (down, refused, timed
 * out, unreadable), an ask or a result past its limit, as the forwarder's `failed` says: a tool
 * error for a tool (which an agent can read and act on), a JSON-RPC error for a prompt or resource.
 */
import { inputRequired, type HandlerContext, type Principal } from '@durable-mcp/handlers';
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { Upstream } from '../upstreams/upstream-declaration';
import { UpstreamProtocolError, type UpstreamClient, type UpstreamOutcome } from './upstream-client';
import type { UpstreamTarget } from './upstream-requests';
import { writeGatewayState } from './gateway-state';
import type { ApprovalRef } from '../evidence/approvals-meta';
import { callersAsk, passedOn, withoutServiceMeta } from './upstream-answer';
import { failureReason } from './guarded-upstream';

/**
 * The idempotency key of one round's upstream call: the same for every attempt of it. A call made
 * again after a state-only answer carries other parameters (the new state), so it has a key of its
 * own: `<exchange>/<round>.<n>`.
 */
export const roundIdempotencyKey = (exchangeId: string, round: number, followUp = 0) =>
  followUp === 0 ? `${exchangeId}/${round}` : `${exchangeId}/${round}.${followUp}`;

/** The most an upstream's ask (its requests and its state) may hold, in bytes of JSON. */
export const MAX_ASK_BYTES = 262_144;

/**
 * How many state-only results in a row (an ask with no requests: "come back") a round takes from
 * an upstream, calling again with its state each time, before the caller is told it failed.
 */
export const MAX_STATE_ONLY_RESULTS = 5;
const STATE_ONLY_PAUSE_MS = 250;

/** Who the caller is, as an upstream that asked for it (`forwardCaller`) reads it: never a credential. */
function callerOf(principal: Principal): Record<string, unknown> {
  return {
    id: principal.id,
    subject: principal.subject,
    ...(principal.kind ? { kind: principal.kind } : {}),
    ...(principal.issuer ? { issuer: principal.issuer } : {}),
    ...(principal.clientId ? { clientId: principal.clientId } : {}),
  };
}

/** What a round forwards, and what the caller gets of each ending. */
export interface Forwarding<R> {
  upstream: Upstream;
  client: UpstreamClient;
  target: UpstreamTarget;
  /** How the caller's messages name the target: `add`, `prompt review`, `resource file:///a`. */
  label: string;
  /** What the caller gets (or what is thrown) when the upstream gives no usable answer. */
  failed(text: string): R;
  /** The upstream's result (without its `resultType` and the service's own `_meta`) as the caller gets it. */
  result(result: Record<string, unknown>): R;
}

/** What the round sends: the answers to the last ask, the upstream's own state, the approvals kept. */
export interface RoundSent {
  inputResponses: Record<string, unknown>;
  upstreamState?: string;
  approvals?: ApprovalRef[];
}

/** One round's call to the upstream (and the calls a state-only answer asks for), as the round's outcome. */
export async function forwardRound<R>(
  forwarding: Forwarding<R>,
  ctx: HandlerContext,
  sent: RoundSent,
): Promise<R | InputRequiredResult> {
  const { upstream, client, target, label } = forwarding;
  let outcome: UpstreamOutcome;
  let { inputResponses, upstreamState } = sent;
  for (let comeBacks = 0; ; comeBacks += 1) {
    try {
      outcome = await client.call({
        target,
        inputResponses,
        ...(upstreamState !== undefined ? { requestState: upstreamState } : {}),
        clientCapabilities: ctx.clientCapabilities as Record<string, unknown>,
        idempotencyKey: roundIdempotencyKey(ctx.exchangeId, ctx.round, comeBacks),
        ...(upstream.forwardCaller ? { caller: callerOf(ctx.principal) } : {}),
        signal: ctx.signal,
      });
    } catch (error) {
      if (error instanceof UpstreamProtocolError) throw passedOn(upstream.name, error);
      const reason = failureReason(error);
      ctx.log.warn(
        { upstream: upstream.name, method: target.method, target: label, err: error },
        'upstream call failed',
      );
      return forwarding.failed(`The upstream server ${upstream.name} could not be reached for ${label}: ${reason}`);
    }
    if (outcome.kind !== 'input_required' || Object.keys(outcome.inputRequests).length > 0) break;
    if (comeBacks + 1 >= MAX_STATE_ONLY_RESULTS || outcome.requestState === undefined)
      return forwarding.failed(
        `The upstream server ${upstream.name} kept answering ${label} with nothing to ask and no result.`,
      );
    upstreamState = outcome.requestState;
    inputResponses = {};
    await new Promise((resolve) => setTimeout(resolve, STATE_ONLY_PAUSE_MS));
    // The round ran out of time (or was cancelled) meanwhile: no more calls for it.
    if (ctx.signal.aborted) throw ctx.signal.reason;
  }
  if (outcome.kind === 'input_required') {
    // Carried in the exchange's history and records, sealed: bounded apart from results.
    const askBytes = Buffer.byteLength(JSON.stringify([outcome.inputRequests, outcome.requestState ?? '']));
    if (askBytes > MAX_ASK_BYTES)
      return forwarding.failed(
        `The upstream server ${upstream.name} asked with ${askBytes} bytes of requests and state for ${label}, over the limit of ${MAX_ASK_BYTES}.`,
      );
    return inputRequired({
      inputRequests: callersAsk(outcome.inputRequests) as Parameters<typeof inputRequired>[0]['inputRequests'],
      requestState: writeGatewayState({
        forwarded: true,
        ...(outcome.requestState !== undefined ? { upstream: outcome.requestState } : {}),
        ...(sent.approvals ? { approvals: sent.approvals } : {}),
      }),
    });
  }
  const size = Buffer.byteLength(JSON.stringify(outcome.result));
  if (size > upstream.maxResultBytes)
    return forwarding.failed(
      `The upstream server ${upstream.name} answered ${label} with ${size} bytes, over its limit of ${upstream.maxResultBytes} (maxResultBytes).`,
    );
  const { resultType: _complete, ...result } = outcome.result;
  return forwarding.result(withoutServiceMeta(result));
}
