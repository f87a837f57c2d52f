/**
 * What the soak reads from the service itself at the end (and the row counts at the start too):
 * Postgres's record of its exchanges (each run has a Postgres of its own, so every exchange in it
 * is the soak's), the rounds that consumed answers, what is still open, and each API's gauges from
 * its /metrics.
 */
import type { FaultStack } from '../test/faults/support/fault-stack';
import { scrape, valueOf } from '../test/support/prometheus-text';
import type { SoakKind } from './soak-options';

/** Which of the soak's kinds an exchange row is (a task by its task row, a question by its tool). */
const KIND_SQL = `CASE WHEN e.era = 'legacy' THEN 'legacy' WHEN t.task_id IS NOT NULL THEN 'task'
  WHEN e.target = 'refund_order' THEN 'question' ELSE 'modern' END`;

export async function tableRows(stack: FaultStack): Promise<Record<string, number>> {
  const tables = await stack.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  const rows: Record<string, number> = {};
  for (const { name } of tables) {
    const [count] = await stack.query<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`);
    rows[name] = Number(count!.n);
  }
  return rows;
}

export interface StatusCount {
  kind: SoakKind;
  status: string;
  count: number;
}

export async function exchangeStatuses(stack: FaultStack): Promise<StatusCount[]> {
  const rows = await stack.query<{ kind: SoakKind; status: string; n: string }>(
    `SELECT ${KIND_SQL} AS kind, e.status, count(*) AS n
       FROM exchanges e LEFT JOIN exchange_tasks t ON t.exchange_id = e.id GROUP BY 1, 2`,
  );
  return rows.map((r) => ({ kind: r.kind, status: r.status, count: Number(r.n) }));
}

/** `<exchange id>#<round asked>` of every round that ran on answers: the answers it applied. */
export async function appliedKeys(stack: FaultStack): Promise<string[]> {
  const rows = await stack.query<{ key: string }>(
    "SELECT exchange_id || '#' || (round - 1) AS key FROM exchange_rounds WHERE round >= 2 AND answers IS NOT NULL",
  );
  return rows.map((r) => r.key);
}

/** What Postgres maps the clients' `task:<id>` and `legacy:<session>` refs to. */
export async function refMap(stack: FaultStack): Promise<Map<string, string>> {
  const rows = await stack.query<{ ref: string; exchange_id: string }>(
    `SELECT 'task:' || task_id AS ref, exchange_id FROM exchange_tasks
     UNION ALL SELECT 'legacy:' || session_id, exchange_id FROM legacy_calls`,
  );
  return new Map(rows.map((r) => [r.ref, r.exchange_id]));
}

export interface RunningExchange {
  id: string;
  kind: SoakKind;
  target: string;
  rounds: number;
  lastOutcome: string | null;
  waitingQuestions: number;
  idleS: number;
}

export async function runningExchanges(stack: FaultStack): Promise<RunningExchange[]> {
  const rows = await stack.query<{
    id: string;
    kind: SoakKind;
    target: string;
    rounds: number;
    last: string | null;
    waiting: string;
    idle: number;
  }>(
    `SELECT e.id, ${KIND_SQL} AS kind, e.target, e.rounds,
            (SELECT r.outcome_kind FROM exchange_rounds r WHERE r.exchange_id = e.id ORDER BY r.round DESC LIMIT 1) AS last,
            (SELECT count(*) FROM questions q WHERE q.exchange_id = e.id AND q.status = 'waiting') AS waiting,
            extract(epoch FROM now() - e.updated_at)::float8 AS idle
       FROM exchanges e LEFT JOIN exchange_tasks t ON t.exchange_id = e.id
      WHERE e.status = 'running' ORDER BY e.created_at`,
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    target: r.target,
    rounds: r.rounds,
    lastOutcome: r.last,
    waitingQuestions: Number(r.waiting),
    idleS: Math.round(r.idle),
  }));
}

export interface OpenRecords {
  /** Legacy sessions not ended. */
  openSessions: string[];
  unfinishedCalls: number;
  openRequests: number;
  waitingQuestions: number;
  /** Answers to questions claimed but never confirmed signalled. */
  unsignalledAnswers: number;
}

export async function openRecords(stack: FaultStack): Promise<OpenRecords> {
  const count = async (sql: string) => Number((await stack.query<{ n: string }>(sql))[0]!.n);
  const sessions = await stack.query<{ id: string }>('SELECT id FROM legacy_sessions WHERE closed_at IS NULL');
  return {
    openSessions: sessions.map((s) => s.id),
    unfinishedCalls: await count('SELECT count(*) AS n FROM legacy_calls WHERE finished_at IS NULL'),
    openRequests: await count("SELECT count(*) AS n FROM legacy_open_requests WHERE status = 'open'"),
    waitingQuestions: await count("SELECT count(*) AS n FROM questions WHERE status = 'waiting'"),
    unsignalledAnswers: await count('SELECT count(*) AS n FROM question_answers WHERE taken AND signalled_at IS NULL'),
  };
}

/** The gauges of each API that is up: its legacy SSE streams, its open handles and requests (sockets, timers). */
export const API_GAUGES = [
  'mcp_legacy_streams_open',
  'mcp_exchanges_open',
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
] as const;

export async function apiGauges(stack: FaultStack): Promise<Array<{ api: string; gauges: Record<string, number> }>> {
  const readings = [];
  for (const slot of [0, 1] as const) {
    if (!stack.apiRunning(slot)) continue;
    const exposition = await scrape(stack.apiUrl(slot).replace(/\/mcp$/, '/metrics'));
    readings.push({
      api: `api${slot}`,
      gauges: Object.fromEntries(API_GAUGES.map((name) => [name, valueOf(exposition, name)])),
    });
  }
  return readings;
}
