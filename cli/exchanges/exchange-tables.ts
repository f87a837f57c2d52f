/**
 * What `durable-mcp exchanges` prints: plain-text tables of the admin API's answers. Pure (answers in,
 * lines out), so it is unit-tested (test/operating/exchanges-cli.unit.test.ts).
 */

export interface ExchangeRow {
  id: string;
  status: string;
  era: string;
  method: string;
  target: string;
  rounds: number;
  asks: number;
  createdAt: string;
  ageSeconds: number;
  session?: string;
  waitingSeconds?: number;
  deadlineAt?: string;
  temporalUiUrl?: string;
  lastOutcome?: string;
  /** The error it ended with; `cause`, a stuck workflow's class. */
  error?: { code: number; message: string; cause?: string };
  principal?: string;
  /** The caller's display name and verified email, shown beside `principal` (withShownName). */
  principalName?: string;
  principalEmail?: string;
  /** The version of the handlers that started it (absent for exchanges started before versions were recorded). */
  handlerVersion?: string;
  updatedAt?: string;
  workflowId?: string;
}

export interface RoundRow {
  round: number;
  kind: string;
  recordedAt: string;
  durationMs?: number;
  inputRequests?: Record<string, { method?: string; params?: { message?: string } }>;
  answers?: Record<string, unknown>;
  waitedMs?: number;
  deadlineAt?: string;
  result?: unknown;
  error?: { code: number; message: string };
}

import { questionLines, type QuestionRow } from './question-table';
import { withShownName } from './shown-name';

export interface ExchangeDetailView {
  exchange: ExchangeRow;
  workflow: { id: string; status: string; temporalUiUrl?: string };
  session?: { tag: string; transport: string; protocolVersion: string; clientInfo?: Record<string, unknown> };
  rounds: RoundRow[];
  questions?: QuestionRow[];
}

/** A duration in seconds, as people read it: 42s, 3m05s, 2h07m, 3d04h. */
export function humanSeconds(total: number): string {
  const s = Math.max(0, Math.round(total));
  if (s < 60) return `${s}s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m${pad(s % 60)}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${pad(Math.floor((s % 3600) / 60))}m`;
  return `${Math.floor(s / 86_400)}d${pad(Math.floor((s % 86_400) / 3600))}h`;
}

/** Milliseconds as people read them: 850ms, 1.2s, then as `humanSeconds`. */
export function humanMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  return humanSeconds(ms / 1000);
}

/** Cuts a cell to `width` characters, marking the cut. */
export function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= width ? flat : `${flat.slice(0, Math.max(0, width - 1))}…`;
}

/** Columns padded to their widest cell, two spaces apart, with a rule under the header. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

const dash = '-';

export function listLines(rows: ReadonlyArray<ExchangeRow>): string[] {
  if (rows.length === 0) return ['No exchanges match.'];
  return table(
    ['ID', 'STATUS', 'ERA', 'METHOD', 'TARGET', 'ROUND', 'ASKS', 'AGE', 'WAITING', 'SESSION', 'HANDLERS'],
    rows.map((row) => [
      row.id,
      // A stuck workflow's ending names its class: `failed (non-determinism)`.
      row.error?.cause ? `${row.status} (${row.error.cause})` : row.status,
      row.era,
      row.method,
      clip(row.target, 32),
      String(row.rounds),
      String(row.asks),
      humanSeconds(row.ageSeconds),
      row.waitingSeconds !== undefined ? humanSeconds(row.waitingSeconds) : dash,
      row.session ?? dash,
      row.handlerVersion !== undefined ? clip(row.handlerVersion, 40) : dash,
    ]),
  );
}

/** What a round asked: each key and the kind of request behind it. */
function askedOf(round: RoundRow): string {
  if (!round.inputRequests) return dash;
  return Object.entries(round.inputRequests)
    .map(([key, request]) => `${key} (${request.method ?? '?'})`)
    .join(', ');
}

/** How an ask was answered: each key, with the action of a form answer when it has one. */
function answeredOf(round: RoundRow): string {
  if (!round.answers) return dash;
  return Object.entries(round.answers)
    .map(([key, answer]) => {
      const action = (answer as { action?: unknown })?.action;
      const error = (answer as { error?: unknown })?.error;
      return typeof action === 'string' ? `${key}: ${action}` : error !== undefined ? `${key}: error` : key;
    })
    .join(', ');
}

function outcomeOf(round: RoundRow): string {
  if (round.error) return `${round.error.code} ${round.error.message}`;
  if (round.kind === 'complete') return 'result';
  if (round.kind === 'ask') return round.answers ? 'answered' : 'waiting';
  return dash;
}

export function detailLines(view: ExchangeDetailView, now = Date.now()): string[] {
  const { exchange, workflow, session } = view;
  const fields: Array<[string, string | undefined]> = [
    ['Exchange', exchange.id],
    ['Status', exchange.status],
    ['Call', `${exchange.method} ${exchange.target}`],
    ['Era', exchange.era],
    [
      'Principal',
      exchange.principal !== undefined
        ? withShownName(exchange.principal, { name: exchange.principalName, email: exchange.principalEmail })
        : undefined,
    ],
    ['Handlers', exchange.handlerVersion],
    [
      'Session',
      session
        ? `${session.tag} (${session.transport}, ${session.protocolVersion}${clientName(session.clientInfo)})`
        : undefined,
    ],
    ['Created', `${exchange.createdAt} (${humanSeconds(exchange.ageSeconds)} ago)`],
    ['Rounds', `${exchange.rounds} (${exchange.asks} asks)`],
    [
      'Waiting',
      exchange.waitingSeconds !== undefined
        ? `${humanSeconds(exchange.waitingSeconds)}${exchange.deadlineAt ? `, deadline ${exchange.deadlineAt} (in ${humanSeconds((Date.parse(exchange.deadlineAt) - now) / 1000)})` : ''}`
        : undefined,
    ],
    ['Workflow', `${workflow.id} (${workflow.status})`],
    ['Temporal UI', workflow.temporalUiUrl],
  ];
  const present = fields.filter((field): field is [string, string] => field[1] !== undefined);
  const width = Math.max(...present.map(([name]) => name.length));
  const lines = present.map(([name, value]) => `${`${name}:`.padEnd(width + 1)}  ${value}`);
  lines.push('');
  if (view.rounds.length === 0) {
    lines.push('No round recorded yet.');
    return lines;
  }
  lines.push(
    ...table(
      ['ROUND', 'KIND', 'RECORDED', 'TOOK', 'ASKED', 'ANSWERED', 'WAITED', 'OUTCOME'],
      view.rounds.map((round) => [
        String(round.round),
        round.kind,
        round.recordedAt,
        round.durationMs !== undefined ? humanMs(round.durationMs) : dash,
        clip(askedOf(round), 60),
        clip(answeredOf(round), 32),
        round.waitedMs !== undefined ? humanMs(round.waitedMs) : dash,
        clip(outcomeOf(round), 60),
      ]),
    ),
  );
  lines.push(...questionLines(view.questions, table));
  return lines;
}

function clientName(info: Record<string, unknown> | undefined): string {
  if (!info || typeof info.name !== 'string') return '';
  return `, client ${info.name}${typeof info.version === 'string' ? ` ${info.version}` : ''}`;
}
