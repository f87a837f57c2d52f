/**
 * `durable-mcp exchanges show`'s table of an exchange's questions addressed to someone else: each
 * attempt to answer one, taken or refused (and why), with who and through what. Pure (rows in,
 * lines out), so it is unit-tested (test/operating/exchanges-questions.unit.test.ts).
 */
import { withShownName } from './shown-name';

export interface QuestionRow {
  key: string;
  round: number;
  status: string;
  attempts: Array<{
    by: string;
    /** The answerer's display name and verified email, printed beside `by` (shown-name.ts). */
    name?: string;
    email?: string;
    at: string;
    via: string;
    action?: string;
    taken: boolean;
    refusal?: string;
  }>;
}

export function questionLines(
  questions: QuestionRow[] | undefined,
  table: (head: string[], rows: string[][]) => string[],
): string[] {
  if (!questions?.length) return [];
  const rows = questions.flatMap((q) =>
    q.attempts.length === 0
      ? [[String(q.round), q.key, q.status, '-', '-', '-', '-', 'no answer yet']]
      : q.attempts.map((a) => [
          String(q.round),
          q.key,
          q.status,
          withShownName(a.by, a),
          a.via,
          a.at,
          a.action ?? '-',
          a.taken ? 'taken' : `refused: ${a.refusal ?? '?'}`,
        ]),
  );
  return ['', ...table(['ROUND', 'QUESTION', 'STATUS', 'BY', 'VIA', 'AT', 'ACTION', 'OUTCOME'], rows)];
}
