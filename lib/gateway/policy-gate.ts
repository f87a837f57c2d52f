/**
 * The first round of an upstream call, before anything is forwarded: what the upstream's policies
 * decide (call-policy.ts), or the decision point a policy names (decision-point.ts), and, for a call
 * held for approval, what its approver answered. A denied
 * call, and one declined or cancelled by its approver, ends with a tool error saying so and by
 * whom, and is never forwarded.
 */
import { inputRequired, type HandlerContext } from '@durable-mcp/handlers';
import type { CallToolResult, InputRequiredResult, Tool } from '@modelcontextprotocol/server';
import { APPROVAL_KEY, approvalRequest } from '../upstreams/approval-request';
import { decideCall, type CallPolicy } from '../upstreams/call-policy';
import { writeGatewayState, type GatewayState } from './gateway-state';
import { askDecisionPoint } from './decision-point';
import { toolError } from './tool-error';

export type Gate = { kind: 'forward' } | { kind: 'stop'; outcome: CallToolResult | InputRequiredResult };

interface Gated {
  upstream: string;
  tool: Tool;
  policies: readonly CallPolicy[];
}

const stop = (outcome: CallToolResult | InputRequiredResult): Gate => ({ kind: 'stop', outcome });

export async function policyGate(
  { upstream, tool, policies }: Gated,
  args: Record<string, unknown>,
  ctx: Pick<HandlerContext, 'inputResponses' | 'answeredBy' | 'expired' | 'principal' | 'exchangeId' | 'log'>,
  state: GatewayState,
): Promise<Gate> {
  const call = `the call to ${upstream}'s tool "${tool.name}"`;
  // The gate's own question waited its whole wait and nobody decided it.
  if (state.asked && ctx.expired?.includes(APPROVAL_KEY))
    return stop(
      toolError(`${capitalized(call)} was not approved in time: nobody answered its approval. It was not forwarded.`),
    );
  // An approval counts only as the answer to the gate's own question: asked in the round before
  // (its state says so) and answered by a verified addressee (answeredBy). A caller's client can
  // send `inputResponses` with any key on a first leg; that is never an approval.
  const answeredBy = ctx.answeredBy?.[APPROVAL_KEY] ?? [];
  const approval =
    state.asked && answeredBy.length > 0
      ? (ctx.inputResponses[APPROVAL_KEY] as { action?: string; content?: { note?: unknown } } | undefined)
      : undefined;
  if (approval !== undefined) {
    if (approval.action === 'accept') return { kind: 'forward' };
    const by = answeredBy.map((a) => a.principal.name ?? a.principal.subject).join(', ');
    const note =
      typeof approval.content?.note === 'string' && approval.content.note ? `: ${approval.content.note}` : '';
    return stop(
      toolError(
        `${capitalized(call)} was not approved (${approval.action ?? 'no answer'}${by ? ` by ${by}` : ''})${note}. It was not forwarded.`,
      ),
    );
  }
  let decision = decideCall(policies, tool.name, args);
  if (decision.kind === 'ask') {
    const { policy } = decision;
    const request = {
      upstream,
      tool: tool.name,
      arguments: args,
      principal: ctx.principal,
      exchangeId: ctx.exchangeId,
      policy,
    };
    const decided = await askDecisionPoint(decision.point, request, ctx.log);
    decision = decided.kind === 'forward' ? decided : { ...decided, policy };
  }
  if (decision.kind === 'forward') return decision;
  if (decision.kind === 'deny')
    return stop(toolError(`The gateway's policy "${decision.policy}" does not allow ${call}: ${decision.reason}`));
  return stop(
    inputRequired({
      inputRequests: { [APPROVAL_KEY]: approvalRequest(upstream, tool, decision.policy, decision.addressing) },
      requestState: writeGatewayState({ forwarded: false, asked: true }),
    }),
  );
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
