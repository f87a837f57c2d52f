/**
 * The approvals a final result rests on, in its `_meta` under `io.durable-mcp/approvals`: for each
 * answer to an addressed question that the handler's last run was given (`ctx.answeredBy`), its key,
 * who gave it, what they did, and the id of its evidence entry (the entry's hash, which an export
 * and `durable-mcp evidence verify` name), so whoever holds the result can find and verify the
 * decisions behind it. Pure.
 */
import type { AnsweredBy } from '@durable-mcp/handlers';

export const APPROVALS_META_KEY = 'io.durable-mcp/approvals';

export interface ApprovalRef {
  key: string;
  by: string;
  action: AnsweredBy['action'];
  via: AnsweredBy['via'];
  /** The evidence entry's hash (docs/security.md "Evidence"). */
  evidence: string;
}

export function approvalsOf(answeredBy: Record<string, AnsweredBy[]> | undefined): ApprovalRef[] {
  return Object.entries(answeredBy ?? {}).flatMap(([key, answers]) =>
    answers.flatMap((a) =>
      a.evidence !== undefined ? [{ key, by: a.principal.id, action: a.action, via: a.via, evidence: a.evidence }] : [],
    ),
  );
}

/** `result` with the approvals added to its `_meta` (a result without any is returned as it is). */
export function withApprovals(
  result: Record<string, unknown>,
  answeredBy: Record<string, AnsweredBy[]> | undefined,
): Record<string, unknown> {
  return withApprovalRefs(result, approvalsOf(answeredBy));
}

/** `result` with `approvals` in its `_meta` (none: `result` as it is). */
export function withApprovalRefs(result: Record<string, unknown>, approvals: ApprovalRef[]): Record<string, unknown> {
  if (approvals.length === 0) return result;
  const meta =
    typeof result._meta === 'object' && result._meta !== null ? (result._meta as Record<string, unknown>) : {};
  return { ...result, _meta: { ...meta, [APPROVALS_META_KEY]: approvals } };
}
