/**
 * The admin read model in Postgres. Lists are keyset-paged on (created_at, id), newest first, so
 * rows written while an operator pages never shift a page (migration 0014 indexes that order, and
 * running exchanges on their own); the position is carried to the microsecond as text, since a JS
 * Date would round it to the millisecond and a page could skip a row.
 */
import type { Pool } from 'pg';
import type { Era, ExchangeMethod, ExchangeStatus, OutcomeKind, RoundOutcome } from '../exchange/types';
import type {
  AdminStore,
  ExchangeDetail,
  ExchangeFilter,
  ExchangeSummary,
  ListPosition,
  RoundDetail,
} from './admin-store';
import { UUID_ANY_CASE as UUID } from '../exchange/uuid';

interface SummaryRow {
  id: string;
  workflow_id: string;
  status: ExchangeStatus;
  era: Era;
  method: ExchangeMethod;
  target: string;
  principal: string;
  principal_name: string | null;
  principal_email: string | null;
  handler_version: string | null;
  rounds: number;
  asks: number;
  created_at: Date;
  updated_at: Date;
  position: string;
  session_tag: string | null;
  last_kind: OutcomeKind | null;
  last_recorded_at: Date | null;
  last_deadline_at: Date | null;
  last_error: { code?: unknown; message?: unknown; data?: { cause?: unknown } } | null;
}

/** One exchange row with its session's tag and its last round, and its list position. */
const SUMMARY_SELECT = `
  SELECT e.id, e.workflow_id, e.status, e.era, e.method, e.target, e.principal, e.principal_name, e.principal_email,
         e.handler_version, e.rounds, e.asks,
         e.created_at, e.updated_at,
         to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position,
         mcp_session_tag(c.session_id) AS session_tag,
         last.outcome_kind AS last_kind, last.recorded_at AS last_recorded_at, last.deadline_at AS last_deadline_at,
         last.error AS last_error
    FROM exchanges e
    LEFT JOIN legacy_calls c ON c.exchange_id = e.id
    LEFT JOIN LATERAL (
      SELECT r.outcome_kind, r.recorded_at, r.deadline_at,
             CASE WHEN r.outcome_kind = 'error' THEN r.outcome->'error' END AS error
        FROM exchange_rounds r
       WHERE r.exchange_id = e.id ORDER BY r.round DESC LIMIT 1
    ) last ON true`;

/** The ending's error as a list shows it: its code and message, and a stuck workflow's class. */
function errorOf(error: SummaryRow['last_error']): ExchangeSummary['error'] {
  if (!error || typeof error.code !== 'number' || typeof error.message !== 'string') return undefined;
  const cause = error.data?.cause;
  return { code: error.code, message: error.message, ...(typeof cause === 'string' ? { cause } : {}) };
}

function toSummary(row: SummaryRow): ExchangeSummary {
  const waiting = row.status === 'running' && row.last_kind === 'ask';
  const error = errorOf(row.last_error);
  return {
    id: row.id,
    workflowId: row.workflow_id,
    status: row.status,
    era: row.era,
    method: row.method,
    target: row.target,
    principal: row.principal,
    ...(row.principal_name !== null ? { principalName: row.principal_name } : {}),
    ...(row.principal_email !== null ? { principalEmail: row.principal_email } : {}),
    ...(row.handler_version !== null ? { handlerVersion: row.handler_version } : {}),
    rounds: row.rounds,
    asks: row.asks,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.session_tag ? { session: row.session_tag } : {}),
    ...(row.last_kind ? { lastOutcome: row.last_kind } : {}),
    ...(error ? { error } : {}),
    ...(waiting && row.last_recorded_at ? { waitingSince: row.last_recorded_at } : {}),
    ...(waiting && row.last_deadline_at ? { deadlineAt: row.last_deadline_at } : {}),
    position: { createdAt: row.position, id: row.id },
  };
}

/** The WHERE clause and its values for a filter and a page start. */
function whereOf(filter: ExchangeFilter, after: ListPosition | undefined): { sql: string; values: unknown[] } {
  const values: unknown[] = [];
  const clauses: string[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filter.status?.length === 1) clauses.push(`e.status = ${param(filter.status[0])}`);
  else if (filter.status?.length) clauses.push(`e.status = ANY(${param(filter.status)}::text[])`);
  if (filter.method) clauses.push(`e.method = ${param(filter.method)}`);
  if (filter.target !== undefined) clauses.push(`e.target = ${param(filter.target)}`);
  if (filter.era) clauses.push(`e.era = ${param(filter.era)}`);
  if (filter.sessionTag) clauses.push(`mcp_session_tag(c.session_id) = ${param(filter.sessionTag)}`);
  if (filter.principal !== undefined) clauses.push(`e.principal = ${param(filter.principal)}`);
  if (filter.handlerVersion !== undefined) clauses.push(`e.handler_version = ${param(filter.handlerVersion)}`);
  if (filter.olderThanS !== undefined)
    clauses.push(`e.created_at < now() - make_interval(secs => ${param(filter.olderThanS)})`);
  if (filter.newerThanS !== undefined)
    clauses.push(`e.created_at > now() - make_interval(secs => ${param(filter.newerThanS)})`);
  if (after) clauses.push(`(e.created_at, e.id) < (${param(after.createdAt)}::timestamptz, ${param(after.id)}::uuid)`);
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', values };
}

interface RoundRow {
  round: number;
  outcome_kind: OutcomeKind;
  outcome: RoundOutcome;
  answers: Record<string, unknown> | null;
  duration_ms: number | null;
  recorded_at: Date;
  deadline_at: Date | null;
}

/** A recorded outcome as an operator reads it: what was asked, answered or failed; never the sealed handler state. */
function outcomeView(outcome: RoundOutcome): Record<string, unknown> {
  switch (outcome.kind) {
    case 'ask':
      return { inputRequests: outcome.inputRequests };
    case 'complete':
      return { result: outcome.result };
    case 'error':
      return { error: outcome.error };
  }
}

function toRound(row: RoundRow): RoundDetail {
  return {
    round: row.round,
    kind: row.outcome_kind,
    ...(row.answers !== null ? { answers: row.answers } : {}),
    outcome: outcomeView(row.outcome),
    ...(row.duration_ms !== null ? { durationMs: row.duration_ms } : {}),
    recordedAt: row.recorded_at,
    ...(row.deadline_at ? { deadlineAt: row.deadline_at } : {}),
  };
}

export function createAdminStorePg(pool: Pool): AdminStore {
  return {
    async listExchanges(filter, { limit, after }) {
      const where = whereOf(filter, after);
      const { rows } = await pool.query<SummaryRow>({
        text: `${SUMMARY_SELECT} ${where.sql} ORDER BY e.created_at DESC, e.id DESC LIMIT $${where.values.length + 1}`,
        values: [...where.values, limit],
      });
      return rows.map(toSummary);
    },

    async getExchange(id) {
      // Not a uuid: no such exchange (and no cast error from Postgres).
      if (!UUID.test(id)) return undefined;
      const { rows } = await pool.query<SummaryRow>({ text: `${SUMMARY_SELECT} WHERE e.id = $1`, values: [id] });
      if (!rows[0]) return undefined;
      const [rounds, session] = await Promise.all([
        pool.query<RoundRow>({
          text: `SELECT round, outcome_kind, outcome, answers, duration_ms, recorded_at, deadline_at
                   FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round`,
          values: [id],
        }),
        pool.query<{
          tag: string;
          transport: string;
          protocol_version: string;
          client_info: Record<string, unknown> | null;
          closed: boolean;
        }>({
          text: `SELECT mcp_session_tag(s.id) AS tag, s.transport, s.protocol_version, s.client_info,
                        s.closed_at IS NOT NULL AS closed
                   FROM legacy_calls c JOIN legacy_sessions s ON s.id = c.session_id
                  WHERE c.exchange_id = $1`,
          values: [id],
        }),
      ]);
      const s = session.rows[0];
      const detail: ExchangeDetail = {
        exchange: toSummary(rows[0]),
        history: rounds.rows.map(toRound),
        ...(s
          ? {
              session: {
                tag: s.tag,
                transport: s.transport,
                protocolVersion: s.protocol_version,
                ...(s.client_info ? { clientInfo: s.client_info } : {}),
                closed: s.closed,
              },
            }
          : {}),
      };
      return detail;
    },
  };
}
