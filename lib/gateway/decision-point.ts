/**
 * Asking an external decision point whether an upstream call may be forwarded, and who must approve
 * it first: a POST in the shape of the AuthZEN Access Evaluation API (subject, resource, action,
 * context), signed as the service's webhooks are (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature` under the point's secret), within its `timeoutMs`.
 *
 * Its answer: `{ "decision": true }` forwards; `{ "decision": true, "context": { "approve": <an
 * addressing, as a policy's approve> } }` holds the call for that approval; `{ "decision": false,
 * "context": { "reason": "..." } }` denies it. A point that cannot be reached, answers late, with a
 * non-2xx status or anything else decides as its `onError` says: deny (fail closed) by default.
 */
import { randomUUID } from 'node:crypto';
import type { Addressing, Principal } from '@durable-mcp/handlers';
import { digestJson } from '../exchange/digest';
import { digestOfJson } from '../evidence/canonical-json';
import { signWebhook } from '../webhooks/signature';
import { approvalProblem } from '../upstreams/approval-request';
import { boundedFetch } from './bounded-fetch';
import type { DecisionPoint } from '../upstreams/call-policy';

/** The most a decision point's answer may hold. */
const MAX_ANSWER_BYTES = 65_536;

export type PointDecision =
  { kind: 'forward' } | { kind: 'approve'; addressing: Addressing } | { kind: 'deny'; reason: string };

export interface DecisionRequest {
  upstream: string;
  tool: string;
  arguments: Record<string, unknown>;
  principal: Principal;
  exchangeId: string;
  policy: string;
}

/** The longest reason a denial passes on to the caller. */
const MAX_REASON = 500;

/** The AuthZEN evaluation request for one call. */
export function evaluationRequest(request: DecisionRequest) {
  const { principal } = request;
  return {
    subject: {
      type: principal.kind === 'service' ? 'service' : principal.kind === 'person' ? 'user' : 'anonymous',
      id: principal.id,
      properties: {
        subject: principal.subject,
        scopes: principal.scopes,
        ...(principal.issuer ? { issuer: principal.issuer } : {}),
        ...(principal.clientId ? { client_id: principal.clientId } : {}),
      },
    },
    resource: {
      type: 'mcp_tool',
      id: `${request.upstream}/${request.tool}`,
      properties: { upstream: request.upstream, tool: request.tool, arguments: request.arguments },
    },
    action: { name: 'tools/call' },
    context: {
      exchange_id: request.exchangeId,
      policy: request.policy,
      arguments_digest: digestJson(request.arguments),
    },
  };
}

/**
 * What an answer decides, or why it decides nothing. `decision` is read first: a `false` denies
 * whatever else the answer holds (a reason too long or of another type is left out), and an
 * approval that cannot be asked denies too, so no malformed answer ever reaches `onError: allow`.
 */
export function readAnswer(answer: unknown): PointDecision | { problem: string } {
  const decision = (answer as { decision?: unknown } | null)?.decision;
  if (typeof decision !== 'boolean') return { problem: 'its answer is not an evaluation result (no boolean decision)' };
  const context = (answer as { context?: unknown }).context;
  const fields = typeof context === 'object' && context !== null ? (context as Record<string, unknown>) : {};
  if (!decision) {
    const reason = typeof fields.reason === 'string' && fields.reason.length <= MAX_REASON ? fields.reason : undefined;
    return { kind: 'deny', reason: reason ?? 'the decision point denied it' };
  }
  if (fields.approve === undefined) return { kind: 'forward' };
  const problem =
    typeof fields.approve === 'object' && fields.approve !== null
      ? approvalProblem(fields.approve as Addressing)
      : 'approve is not an addressing';
  return problem
    ? { kind: 'deny', reason: `the decision point asked for an approval that cannot be asked (${problem})` }
    : { kind: 'approve', addressing: fields.approve as Addressing };
}

/** What asking a decision point came to: its decision, and what an evidence entry says of the asking. */
export interface Consultation {
  decided: PointDecision;
  answered: {
    /** Its HTTP status, when it answered. */
    status?: number;
    /** JCS SHA-256 of the JSON it answered, when it answered JSON. */
    responseDigest?: string;
    /** Why it decided nothing, when it did not (the decision is then its `onError`'s). */
    failure?: string;
  };
}

export async function consultDecisionPoint(
  point: DecisionPoint,
  request: DecisionRequest,
  log: { warn(fields: object, message: string): void },
  fetchImpl: typeof fetch = fetch,
): Promise<Consultation> {
  const answered: Consultation['answered'] = {};
  const failed = (why: string): Consultation => {
    log.warn({ url: point.url, policy: request.policy, reason: why, onError: point.onError }, 'decision point failed');
    return {
      decided:
        point.onError === 'allow'
          ? { kind: 'forward' }
          : { kind: 'deny', reason: `the decision point could not decide (${why}), and its policy fails closed` },
      answered: { ...answered, failure: why },
    };
  };
  if (!point.secret) return failed('its secret is not set');
  const body = JSON.stringify(evaluationRequest(request));
  try {
    // A secret that cannot sign (too short, say) fails closed like any other failure to decide.
    const headers = signWebhook(`dp_${randomUUID()}`, Math.floor(Date.now() / 1000), body, [point.secret]);
    const response = await boundedFetch(MAX_ANSWER_BYTES, fetchImpl)(point.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body,
      // The signed arguments go to this URL and no other.
      redirect: 'error',
      signal: AbortSignal.timeout(point.timeoutMs),
    });
    answered.status = response.status;
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return failed(`HTTP ${response.status}`);
    }
    const answer: unknown = await response.json();
    answered.responseDigest = digestOfJson(answer);
    const decided = readAnswer(answer);
    return 'problem' in decided ? failed(decided.problem) : { decided, answered };
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  }
}

/** The decision alone. */
export const askDecisionPoint = async (...args: Parameters<typeof consultDecisionPoint>): Promise<PointDecision> =>
  (await consultDecisionPoint(...args)).decided;
