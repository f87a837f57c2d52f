/**
 * The table of the windows (docs/architecture.md) a fast path opens promises a fault scenario for each window in
 * each era: every scenario it names must exist, in the window file of every era (2026-07-28, a
 * legacy session, a task), or in a file of its own. Reads the table and the fault files; no
 * services are started.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';

const ROOT = projectRoot();
const FAULTS = path.join(ROOT, 'test', 'faults');
const ERA_FILES = ['round-windows.fault.test.ts', 'legacy-windows.fault.test.ts', 'task-windows.fault.test.ts'];

/** The last cell of each row of the table under "### The windows a fast path opens": its scenario. */
function scenarioCells(readme: string): string[] {
  const start = readme.indexOf('### The windows a fast path opens');
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('|---') && !line.startsWith('| Window |'))
    .map((line) => line.split('|').at(-2)!.trim());
}

/** The names of a fault file's scenarios. */
const scenariosOf = (file: string) =>
  [...readFileSync(path.join(FAULTS, file), 'utf8').matchAll(/scenario\(\s*'([^']+)'/g)].map((m) => m[1]!);

describe('docs/architecture.md windows table', () => {
  const cells = scenarioCells(readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8'));
  const eraCells = cells.filter((cell) => cell.endsWith(' window`'));

  it('is found, with one row per window and the burst', () => {
    expect(eraCells.length).toBeGreaterThanOrEqual(5);
    expect(cells).toContain('`answer-burst` (five kills a run)');
  });

  it.each(ERA_FILES)('names windows that %s holds open, each one', (file) => {
    const names = scenariosOf(file);
    const window = (cell: string) => cell.replace(/`/g, '');
    expect(eraCells.map(window).filter((w) => !names.some((name) => name.startsWith(`${w}:`)))).toEqual([]);
  });

  it('names windows only a task has, each held open by task-windows.fault.test.ts', () => {
    const taskOnly = cells.map((cell) => /^`(.+ window)` \(a task\)$/.exec(cell)?.[1]).filter((w) => w !== undefined);
    const names = scenariosOf('task-windows.fault.test.ts');
    expect(taskOnly.length).toBeGreaterThanOrEqual(1);
    expect(taskOnly.filter((w) => !names.some((name) => name.startsWith(`${w}:`)))).toEqual([]);
  });

  it('names windows of API replicas, each held open by api.fault.test.ts', () => {
    const apiOnly = cells.map((cell) => /^`(.+ window)` \(two APIs\)$/.exec(cell)?.[1]).filter((w) => w !== undefined);
    const names = scenariosOf('api.fault.test.ts');
    expect(apiOnly.length).toBeGreaterThanOrEqual(1);
    expect(apiOnly.filter((w) => !names.some((name) => name.startsWith(`${w}:`)))).toEqual([]);
  });

  it('names a burst scenario that exists and runs at least five times', () => {
    const file = path.join(FAULTS, 'answer-burst.fault.test.ts');
    expect(existsSync(file)).toBe(true);
    const runs = Number(/const RUNS = (\d+);/.exec(readFileSync(file, 'utf8'))?.[1] ?? 0);
    expect(runs).toBeGreaterThanOrEqual(5);
  });
});
