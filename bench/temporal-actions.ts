/**
 * Temporal's billable actions, as the server itself counts them: its `action` counter (by
 * `action_type`, on its Prometheus endpoint), which is what Temporal Cloud bills. Read before and
 * after a scenario's measured exchanges on a server that runs nothing else, the difference divided
 * by the exchanges is what one exchange costs. Queries count too (a query is an action), which no
 * history shows. Parsing is pure, so bench/self-check.ts pins it.
 */

/** The counter's value per `action_type` for one namespace. */
export type ActionCounts = Record<string, number>;

const ACTION_LINE = /^action\{([^}]*)\}\s+([0-9.eE+-]+)\s*$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** The `action` counter's values in a Prometheus text exposition, summed per action type for `namespace`. */
export function parseActions(exposition: string, namespace: string): ActionCounts {
  const counts: ActionCounts = {};
  for (const line of exposition.split('\n')) {
    const match = ACTION_LINE.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...match[1]!.matchAll(LABEL)].map((m) => [m[1]!, m[2]!]));
    if (labels.namespace !== namespace) continue;
    const type = labels.action_type ?? 'unknown';
    counts[type] = (counts[type] ?? 0) + Number(match[2]);
  }
  return counts;
}

/** Per exchange: the growth of each action type between two readings, and their sum. */
export function actionsPerExchange(
  before: ActionCounts,
  after: ActionCounts,
  exchanges: number,
): { total: number; byType: ActionCounts } {
  const byType: ActionCounts = {};
  let total = 0;
  for (const [type, value] of Object.entries(after)) {
    const grown = value - (before[type] ?? 0);
    if (grown <= 0) continue;
    byType[type] = grown / exchanges;
    total += grown;
  }
  return { total: total / exchanges, byType };
}

/** Reads the counter from a server's `/metrics`. */
export async function readActions(metricsUrl: string, namespace = 'default'): Promise<ActionCounts> {
  const response = await fetch(metricsUrl, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${metricsUrl}: HTTP ${response.status}`);
  return parseActions(await response.text(), namespace);
}
