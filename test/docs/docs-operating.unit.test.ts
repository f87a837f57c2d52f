/**
 * The metrics table of docs/operators.md is what an operator builds dashboards from: it must list exactly the
 * metrics the catalog defines, each with its type, labels and the processes that export it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { METRICS } from '../../lib/metrics/catalog';
import { projectRoot } from '../../lib/paths';

interface Row {
  name: string;
  kind: string;
  labels: string[];
  processes: string[];
}

/** The rows of the table under "### Metrics" whose first cell is a metric name. */
function metricRows(readme: string): Row[] {
  const section = readme.slice(readme.indexOf('### Metrics'), readme.indexOf('### Admin API'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `mcp_'))
    .map((line) => {
      const [name, kind, labels, from] = line
        .split('|')
        .slice(1, 5)
        .map((cell) => cell.trim());
      return {
        name: name!.replace(/`/g, ''),
        kind: kind!,
        labels: [...labels!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!),
        processes: from!.split(',').map((p) => p.trim().toLowerCase()),
      };
    });
}

describe('docs/operators.md metrics table', () => {
  const rows = metricRows(readFileSync(path.join(projectRoot(), 'docs', 'operators.md'), 'utf8'));

  it('lists every metric of the catalog once, and nothing else', () => {
    expect(rows.map((row) => row.name).sort()).toEqual(
      Object.values(METRICS)
        .map((m) => m.name)
        .sort(),
    );
  });

  it.each(Object.values(METRICS).map((m) => [m.name, m] as const))(
    'describes %s as the catalog defines it',
    (name, metric) => {
      const row = rows.find((r) => r.name === name)!;
      expect({ kind: row.kind, labels: row.labels, processes: [...row.processes].sort() }).toEqual({
        kind: metric.kind,
        labels: [...metric.labelNames],
        processes: [...metric.processes].sort(),
      });
    },
  );
});
