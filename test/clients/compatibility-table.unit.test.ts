import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';
import { CLIENTS, EXPECTED, SCENARIOS } from './compatibility';
import { renderCompatibilityTable, withCompatibilityTable } from './compatibility-table';

const DOC = path.join(projectRoot(), 'docs', 'protocol.md');

describe('the client compatibility table', () => {
  it('is in docs/protocol.md as the data renders it (run `npm run docs:clients` after changing a cell)', () => {
    const written = readFileSync(DOC, 'utf8');
    expect(written).toBe(withCompatibilityTable(written));
  });

  it('has one row per client and a cell for every scenario', () => {
    const table = renderCompatibilityTable().split('\n');
    const columns = Object.keys(SCENARIOS).length + 2;
    for (const row of Object.values(CLIENTS)) {
      const line = table.find((l) => l.startsWith(`| ${row.label} |`));
      expect(line?.split(/(?<!\\)\|/).length).toBe(columns + 2);
    }
    for (const cells of Object.values(EXPECTED)) {
      for (const value of Object.values(cells)) expect(value).toMatch(/^[^?]+$/);
    }
  });

  it('is asserted for every client by a test file of test/clients', () => {
    const dir = path.join(projectRoot(), 'test', 'clients');
    const tests = readdirSync(dir)
      .filter((f) => f.endsWith('.int.test.ts'))
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
    for (const id of Object.keys(CLIENTS))
      expect(tests).toMatch(new RegExp(`describeClient\\(\\s*service,\\s*'${id}'`));
  });
});
