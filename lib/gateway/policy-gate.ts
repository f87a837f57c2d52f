/**
 * The first round of an upstream call, before anything is forwarded: what the upstream's policies
 * decide (call-policy.ts), or the decision point a policy names (decision-point.ts), and, for a call
 * held for approval, what its approver answered. A denied
 * call, and one declined or cancelled by its approver, ends with a tool error saying so and by
 * whom, and is never forwarded.
 *
 * A policy's denial and every decision of a decision point are evidence (gateway-decision-entry.ts):
 * recorded (decision-record.ts) before the round acts on them, once per exchange and round. The
 * round acts on the decision that stands, the first recorded: a repeat of the round (an activity
 * retried, a worker that died before recording the round) finds it and does not ask the decision
 * point again, and one that raced another attempt to record acts on the other's. A decision that
 * cannot be recorded is not acted on: the call ends with a tool error and is not forwarded.
 */
import { inputRequired, type Addressing, type HandlerContext } from '@durable-mcp/handlers';
import type { CallToolResult, InputRequiredResult, Tool } from '@modelcontextprotocol/server';
import { APPROVAL_KEY, approvalRequest } from '../upstreams/approval-request';
import { decideCall, type CallPolicy, type PolicyDecision } from '../upstreams/call-policy';
import {
  gatewayDecisionFactsOf,
  type GatewayDecision,
  type GatewayDecisionFacts,
} from '../evidence/gateway-decision-entry';
import { writeGatewayState, type GatewayState } from './gateway-state';
import { consultDecisionPoint } from './decision-point';
import type { DecisionRecord } from './decision-record';
import { toolError } from './tool-error';

export type Gate = { kind: 'forward' } | { kind: 'stop'; outcome: CallToolResult | InputRequiredResult };

interface Gated {
  upstream: string;
  /** The tool as the service lists it: the name evidence binds the call by. */
  target: string;
  tool: Tool;
  policies: readonly CallPolicy[];
  /** Where decisions are recorded; none in a process that runs no rounds (and in unit tests of the rest). */
  decisions?: DecisionRecord;
}

type GateContext = Pick<
  HandlerContext,
  'inputResponses' | 'answeredBy' | 'expired' | 'principal' | 'exchangeId' | 'round' | 'log'
>;

const stop = (outcome: CallToolResult | InputRequiredResult): Gate => ({ kind: 'stop', outcome });

export async function policyGate(
  gated: Gated,
  args: Record<string, unknown>,
  ctx: GateContext,
  state: GatewayState,
): Promise<Gate> {
  const { upstream, tool, policies } = gated;
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
  const decision = decideCall(policies, tool.name, args);
  if (decision.kind === 'forward') return { kind: 'forward' };
  if (decision.kind === 'approve') return askApproval(gated, decision.policy, decision.addressing);
  let stands: GatewayDecisionFacts;
  try {
    stands = await decisionThatStands(gated, decision, args, ctx);
  } catch (error) {
    ctx.log.error({ err: error, upstream, tool: tool.name }, "the gateway's decision could not be recorded");
    return stop(
      toolError(
        `The gateway could not record its policy's decision on ${call}, so it does not act on it. It was not forwarded.`,
      ),
    );
  }
  const decided = stands.decision;
  if (decided.outcome === 'forward') return { kind: 'forward' };
  if (decided.outcome === 'deny')
    return stop(toolError(`The gateway's policy "${stands.policy}" does not allow ${call}: ${decided.reason}`));
  return askApproval(gated, stands.policy, decided.approve);
}

/**
 * The decision on this round's call that stands: the one recorded for the exchange and round when
 * there is one (the decision point is not asked again), else this one, once recorded (or the one
 * another attempt recorded first).
 */
async function decisionThatStands(
  gated: Gated,
  decision: Extract<PolicyDecision, { kind: 'deny' | 'ask' }>,
  args: Record<string, unknown>,
  ctx: GateContext,
): Promise<GatewayDecisionFacts> {
  const { decisions } = gated;
  if (decision.kind === 'ask') {
    const recorded = await decisions?.read(ctx.exchangeId, ctx.round);
    if (recorded) {
      ctx.log.info(
        { policy: recorded.policy, outcome: recorded.decision.outcome },
        'a repeat of the round: the decision recorded first stands, the decision point is not asked again',
      );
      return recorded;
    }
  }
  const { principal } = ctx;
  const facts = (decided: GatewayDecision, decisionPoint?: GatewayDecisionFacts['decisionPoint']) =>
    gatewayDecisionFactsOf({
      exchangeId: ctx.exchangeId,
      round: ctx.round,
      target: gated.target,
      upstream: gated.upstream,
      tool: gated.tool.name,
      arguments: args,
      caller: {
        id: principal.id,
        ...(principal.issuer !== undefined ? { issuer: principal.issuer } : {}),
        subject: principal.subject,
      },
      policy: decision.policy,
      decision: decided,
      ...(decisionPoint ? { decisionPoint } : {}),
      at: Date.now(),
    });
  let made: GatewayDecisionFacts;
  if (decision.kind === 'deny') made = facts({ outcome: 'deny', reason: decision.reason });
  else {
    const { point, policy } = decision;
    const request = {
      upstream: gated.upstream,
      tool: gated.tool.name,
      arguments: args,
      principal,
      exchangeId: ctx.exchangeId,
      policy,
    };
    const { decided, answered } = await consultDecisionPoint(point, request, ctx.log);
    made = facts(
      decided.kind === 'forward'
        ? { outcome: 'forward' }
        : decided.kind === 'deny'
          ? { outcome: 'deny', reason: decided.reason }
          : { outcome: 'approve', approve: decided.addressing },
      { url: point.url, ...answered, onError: point.onError },
    );
  }
  return decisions ? decisions.record(made) : made;
}

function askApproval(gated: Gated, policy: string, addressing: Addressing): Gate {
  return stop(
    inputRequired({
      inputRequests: { [APPROVAL_KEY]: approvalRequest(gated.upstream, gated.tool, policy, addressing) },
      requestState: writeGatewayState({ forwarded: false, asked: true }),
    }),
  );
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
