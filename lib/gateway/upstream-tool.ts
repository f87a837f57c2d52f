/**
 * An upstream's tool as a handler: a round calls the upstream's `tools/call` (later rounds with the
 * answers to its ask and the upstream's own `requestState`), and whatever the upstream answers is
 * the round's outcome. An upstream `InputRequiredResult` is the round's ask; its `requestState`
 * becomes the handler's state, so the service seals it (AES-GCM, bound to the exchange and
 * round) and no client ever sees it bare. Re-entry stays re-execution: the upstream repeats the
 * call from the top with the answers, as the 2026-07-28 revision has every server do.
 *
 * Before the first upstream call, the upstream's policies decide (policy-gate.ts): a denied call is
 * never forwarded, and one that needs an approval is forwarded only once it is approved. An
 * upstream's ask goes to the caller's client only: an `addressedTo` in it is dropped, since who
 * may answer for an upstream is the operator's to say, in a policy.
 *
 * What the caller gets when the upstream cannot answer: its JSON-RPC error passed on as the call's
 * error (the message naming the upstream); a failure to reach it (down, refused, timed out,
 * unreadable) or a result past `maxResultBytes` as a tool error, which an agent can read and act on.
 */
import { inputRequired, type HandlerContext, type Principal, type ToolHandler } from '@durable-mcp/handlers';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { Upstream } from '../upstreams/upstream-declaration';
import { UpstreamProtocolError, type UpstreamClient, type UpstreamOutcome } from './upstream-client';
import { readGatewayState, writeGatewayState } from './gateway-state';
import { policyGate } from './policy-gate';
import { approvalsOf, withApprovalRefs, type ApprovalRef } from '../evidence/approvals-meta';
import { APPROVAL_KEY } from '../upstreams/approval-request';
import type { PolicyBook } from './policy-book';
import { toolError } from './tool-error';
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

/**
 * How many state-only results in a row (an ask with no requests: "come back") a round takes from
 * an upstream, calling again with its state each time, before it gives the caller a tool error.
 */
export const MAX_STATE_ONLY_RESULTS = 5;
const STATE_ONLY_PAUSE_MS = 250;

/** The tool as the service lists it: the upstream's description under its prefixed name, run as our own exchange. */
export function listedTool(upstream: Upstream, tool: Tool): Tool {
  // `execution` says how the upstream runs tasks; here a call is an exchange whatever it says.
  const { execution: _upstreamTasks, ...described } = tool;
  return { ...described, name: `${upstream.toolPrefix}${tool.name}` };
}

interface Forwarding {
  upstream: Upstream;
  client: UpstreamClient;
  tool: Tool;
}

/** One round's call to the upstream (and the calls a state-only answer asks for), as the round's outcome. */
async function forward(
  { upstream, client, tool }: Forwarding,
  args: Record<string, unknown>,
  ctx: HandlerContext,
  sent: { inputResponses: Record<string, unknown>; upstreamState?: string; approvals?: ApprovalRef[] },
) {
  let outcome: UpstreamOutcome;
  let { inputResponses, upstreamState } = sent;
  for (let comeBacks = 0; ; comeBacks += 1) {
    try {
      outcome = await client.callTool({
        tool,
        arguments: args,
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
      ctx.log.warn({ upstream: upstream.name, tool: tool.name, err: error }, 'upstream call failed');
      return toolError(`The upstream server ${upstream.name} could not be reached for ${tool.name}: ${reason}`);
    }
    if (outcome.kind !== 'input_required' || Object.keys(outcome.inputRequests).length > 0) break;
    if (comeBacks + 1 >= MAX_STATE_ONLY_RESULTS || outcome.requestState === undefined)
      return toolError(
        `The upstream server ${upstream.name} kept answering ${tool.name} with nothing to ask and no result.`,
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
      return toolError(
        `The upstream server ${upstream.name} asked with ${askBytes} bytes of requests and state for ${tool.name}, over the limit of ${MAX_ASK_BYTES}.`,
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
    return toolError(
      `The upstream server ${upstream.name} answered ${tool.name} with ${size} bytes, over its limit of ${upstream.maxResultBytes} (maxResultBytes).`,
    );
  const { resultType: _complete, ...result } = outcome.result;
  // The approvals the call was forwarded on, whichever round the upstream answers in.
  return withApprovalRefs(withoutServiceMeta(result), sent.approvals ?? []) as CallToolResult;
}

export function upstreamToolHandler(
  upstream: Upstream,
  client: UpstreamClient,
  tool: Tool,
  policies: PolicyBook,
): ToolHandler {
  return {
    tool: listedTool(upstream, tool),
    // A network call: by default a regular activity, heartbeating, bounded by HANDLER_TIMEOUT_MS;
    // declared local, inside its workflow task, bounded by LOCAL_HANDLER_TIMEOUT_MS (its calls fit
    // it: config/upstreams.ts). Either way the round's bound aborts `ctx.signal`, and so the call.
    roundActivity: upstream.roundActivity,
    async run(args, ctx) {
      const state = readGatewayState(ctx.requestState);
      if (state.forwarded)
        return forward({ upstream, client, tool }, args, ctx, {
          inputResponses: ctx.inputResponses,
          ...(state.upstream !== undefined ? { upstreamState: state.upstream } : {}),
          ...(state.approvals ? { approvals: state.approvals } : {}),
        });
      const { decisions } = policies;
      const gate = await policyGate(
        {
          upstream: upstream.name,
          target: `${upstream.toolPrefix}${tool.name}`,
          tool,
          policies: policies.of(upstream.name),
          ...(decisions ? { decisions } : {}),
        },
        args,
        ctx,
        state,
      );
      if (gate.kind === 'stop') return gate.outcome;
      // The approval's answer is the gateway's, not the upstream's: its first call carries none.
      const approvals = state.asked ? approvalsOf(ctx.answeredBy).filter((a) => a.key === APPROVAL_KEY) : [];
      return forward({ upstream, client, tool }, args, ctx, {
        inputResponses: {},
        ...(approvals.length > 0 ? { approvals } : {}),
      });
    },
  };
}
