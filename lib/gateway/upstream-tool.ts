/**
 * An upstream's tool as a handler: a round calls the upstream's `tools/call` (later rounds with the
 * answers to its ask and the upstream's own `requestState`), and whatever the upstream answers is
 * the round's outcome (upstream-round.ts, shared with prompts and resources). An upstream
 * `InputRequiredResult` is the round's ask; its `requestState` becomes the handler's state, so the
 * service seals it (AES-GCM, bound to the exchange and round) and no client ever sees it bare.
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
import { type HandlerContext, type ToolHandler } from '@durable-mcp/handlers';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { Upstream } from '../upstreams/upstream-declaration';
import type { UpstreamClient } from './upstream-client';
import { readGatewayState } from './gateway-state';
import { policyGate } from './policy-gate';
import { approvalsOf, withApprovalRefs } from '../evidence/approvals-meta';
import { APPROVAL_KEY } from '../upstreams/approval-request';
import type { PolicyBook } from './policy-book';
import { toolError } from './tool-error';
import { forwardRound, type RoundSent } from './upstream-round';

export { MAX_ASK_BYTES, MAX_STATE_ONLY_RESULTS, roundIdempotencyKey } from './upstream-round';

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

/** One round's call of the tool: its failures are tool errors, its result names the approvals it was forwarded on. */
const forward = (
  { upstream, client, tool }: Forwarding,
  args: Record<string, unknown>,
  ctx: HandlerContext,
  sent: RoundSent,
) =>
  forwardRound<CallToolResult>(
    {
      upstream,
      client,
      target: { method: 'tools/call', tool, arguments: args },
      label: tool.name,
      failed: toolError,
      // The approvals the call was forwarded on, whichever round the upstream answers in.
      result: (result) => withApprovalRefs(result, sent.approvals ?? []) as CallToolResult,
    },
    ctx,
    sent,
  );

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
