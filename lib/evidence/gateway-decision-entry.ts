/**
 * The evidence log's second kind of entry: a decision the gateway took on an upstream call before
 * forwarding anything (lib/gateway/policy-gate.ts), where no person answered. A call a policy
 * denies, and every decision of an external decision point (forward, deny, hold for an approval it
 * addresses, or its failure to decide, which its `onError` turns into a deny or a forward), bound
 * to the exchange and round, the call (upstream, tool, a digest of its arguments, the caller), the
 * policy that decided, and for a decision point its URL and a digest of what it answered.
 *
 * It shares the log, the chain and the signature with the entries of answers (evidence-entry.ts),
 * whose payload it leaves unchanged: an entry with `"kind": "gateway-decision"` is of this kind, an
 * entry without `kind` is an answer's. Pure: the worker records the facts, the API signs them into
 * the log (lib/db/gateway-decisions-pg.ts).
 */
import type { Addressing } from '@durable-mcp/handlers';
import { digestOfJson } from './canonical-json';
import { EVIDENCE_TYPE, EVIDENCE_VERSION, type EvidenceLinks } from './evidence-entry';

export const GATEWAY_DECISION_KIND = 'gateway-decision';

/** What was decided: forward the call, deny it (and why), or hold it until these approve it. */
export type GatewayDecision =
  { outcome: 'forward' } | { outcome: 'deny'; reason: string } | { outcome: 'approve'; approve: Addressing };

/** A decision point as an entry names it: where it was asked and what came back. */
export interface DecisionPointEvidence {
  url: string;
  /** JCS SHA-256 of the JSON it answered (`{"decision": …, "context": …}`), when it answered JSON. */
  responseDigest?: string;
  /** Its HTTP status, when it answered at all. */
  status?: number;
  /** Why it decided nothing, when it did not: the decision is then its `onError`'s. */
  failure?: string;
  onError: 'deny' | 'allow';
}

/** The facts of one gateway decision, before the log links it. */
export interface GatewayDecisionFacts {
  kind: typeof GATEWAY_DECISION_KIND;
  exchange: string;
  round: number;
  call: {
    method: 'tools/call';
    /** The tool as the service lists it (the upstream's prefix and name). */
    target: string;
    upstream: string;
    /** The upstream's own name of the tool. */
    tool: string;
    /** JCS SHA-256 of the call's arguments, as an answer's entry binds them. */
    argumentsDigest: string;
    caller: { id: string; issuer?: string; subject: string };
  };
  policy: string;
  decision: GatewayDecision;
  decisionPoint?: DecisionPointEvidence;
  /** When the gateway decided (the worker's clock), ISO 8601. */
  decidedAt: string;
}

export type GatewayDecisionPayload = { typ: typeof EVIDENCE_TYPE; v: typeof EVIDENCE_VERSION } & EvidenceLinks &
  GatewayDecisionFacts;

export interface GatewayDecisionInput {
  exchangeId: string;
  round: number;
  target: string;
  upstream: string;
  tool: string;
  arguments: Record<string, unknown>;
  caller: { id: string; issuer?: string; subject: string };
  policy: string;
  decision: GatewayDecision;
  decisionPoint?: DecisionPointEvidence;
  at: number;
}

export function gatewayDecisionFactsOf(input: GatewayDecisionInput): GatewayDecisionFacts {
  const { caller } = input;
  return {
    kind: GATEWAY_DECISION_KIND,
    exchange: input.exchangeId,
    round: input.round,
    call: {
      method: 'tools/call',
      target: input.target,
      upstream: input.upstream,
      tool: input.tool,
      argumentsDigest: digestOfJson(input.arguments),
      caller: {
        id: caller.id,
        ...(caller.issuer !== undefined ? { issuer: caller.issuer } : {}),
        subject: caller.subject,
      },
    },
    policy: input.policy,
    decision: input.decision,
    ...(input.decisionPoint ? { decisionPoint: input.decisionPoint } : {}),
    decidedAt: new Date(input.at).toISOString(),
  };
}

/** The payload a gateway decision's entry signs: its facts at its place in the log. */
export const gatewayDecisionPayloadOf = (
  facts: GatewayDecisionFacts,
  links: EvidenceLinks,
): GatewayDecisionPayload => ({
  typ: EVIDENCE_TYPE,
  v: EVIDENCE_VERSION,
  ...links,
  ...facts,
});

/** Whether a verified payload is a gateway decision's (else an answer's, which has no `kind`). */
export const isGatewayDecision = (payload: object): payload is GatewayDecisionPayload =>
  (payload as { kind?: unknown }).kind === GATEWAY_DECISION_KIND;
