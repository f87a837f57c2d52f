/**
 * How the admin API shows an exchange: times as ISO 8601, ages and waits in seconds, each ask
 * beside the answers it got, and the link to its workflow in the Temporal Web UI. Pure.
 */
import type { ExchangeDetail, ExchangeSummary, RoundDetail } from '../../../../lib/db/admin-store';

/**
 * Where the Temporal Web UI shows a workflow (TEMPORAL_UI_URL); undefined without a UI configured.
 * The UI takes a workflow id alone to its latest run.
 */
export function temporalUiLink(ui: { baseUrl?: string; namespace: string }, workflowId: string): string | undefined {
  if (!ui.baseUrl) return undefined;
  return `${ui.baseUrl}/namespaces/${encodeURIComponent(ui.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

const seconds = (fromMs: number, toMs: number) => Math.max(0, Math.round((toMs - fromMs) / 1000));

export interface ViewContext {
  now: number;
  ui: { baseUrl?: string; namespace: string };
}

export function summaryView(summary: ExchangeSummary, context: ViewContext): Record<string, unknown> {
  const link = temporalUiLink(context.ui, summary.workflowId);
  return {
    id: summary.id,
    workflowId: summary.workflowId,
    status: summary.status,
    era: summary.era,
    method: summary.method,
    target: summary.target,
    principal: summary.principal,
    ...(summary.principalName !== undefined ? { principalName: summary.principalName } : {}),
    ...(summary.principalEmail !== undefined ? { principalEmail: summary.principalEmail } : {}),
    ...(summary.handlerVersion !== undefined ? { handlerVersion: summary.handlerVersion } : {}),
    rounds: summary.rounds,
    asks: summary.asks,
    createdAt: summary.createdAt.toISOString(),
    updatedAt: summary.updatedAt.toISOString(),
    ageSeconds: seconds(summary.createdAt.getTime(), context.now),
    ...(summary.session ? { session: summary.session } : {}),
    ...(summary.lastOutcome ? { lastOutcome: summary.lastOutcome } : {}),
    ...(summary.error ? { error: summary.error } : {}),
    ...(summary.waitingSince
      ? {
          waitingSince: summary.waitingSince.toISOString(),
          waitingSeconds: seconds(summary.waitingSince.getTime(), context.now),
        }
      : {}),
    ...(summary.deadlineAt ? { deadlineAt: summary.deadlineAt.toISOString() } : {}),
    ...(link ? { temporalUiUrl: link } : {}),
  };
}

/**
 * The rounds as an operator reads them: each round's outcome (an ask's requests, the result, the
 * error) and timings; an ask carries the answers it got, which the next round ran with, and when
 * they came (that round's start: its record time less its duration).
 */
export function roundsView(history: ReadonlyArray<RoundDetail>): Array<Record<string, unknown>> {
  return history.map((round, index) => {
    const next = history[index + 1];
    const answered = round.kind === 'ask' && next?.answers !== undefined;
    const answeredAt = answered ? next.recordedAt.getTime() - (next.durationMs ?? 0) : undefined;
    return {
      round: round.round,
      kind: round.kind,
      recordedAt: round.recordedAt.toISOString(),
      ...(round.durationMs !== undefined ? { durationMs: round.durationMs } : {}),
      ...round.outcome,
      ...(round.deadlineAt ? { deadlineAt: round.deadlineAt.toISOString() } : {}),
      ...(answered
        ? {
            answers: next.answers,
            answeredAt: new Date(answeredAt!).toISOString(),
            waitedMs: Math.max(0, answeredAt! - round.recordedAt.getTime()),
          }
        : {}),
    };
  });
}

/** `workflowStatus`: what Temporal says of the workflow now (RUNNING, COMPLETED, ..., NOT_FOUND, or `unavailable`). */
export function detailView(
  detail: ExchangeDetail,
  workflowStatus: string,
  context: ViewContext,
): Record<string, unknown> {
  const link = temporalUiLink(context.ui, detail.exchange.workflowId);
  return {
    exchange: summaryView(detail.exchange, context),
    workflow: {
      id: detail.exchange.workflowId,
      status: workflowStatus,
      ...(link ? { temporalUiUrl: link } : {}),
    },
    ...(detail.session ? { session: detail.session } : {}),
    rounds: roundsView(detail.history),
  };
}
