// `npm run lint:imports` (part of `npm test`) runs the repository's import rules. Each is tried here
// on a small tree in a temporary folder that breaks it, so a rule that stopped matching (a moved
// folder, a mistyped pattern) fails this test instead of passing everything.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';

const ROOT = projectRoot();
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');

/** Writes `files` (path -> source) into a fresh folder and returns the rules depcruise says they break. */
function brokenRules(files: Record<string, string>): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'import-rules-'));
  try {
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs' } }));
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), source);
    }
    const folders = [...new Set(Object.keys(files).map((file) => file.split('/')[0]!))];
    const run = spawnSync(process.execPath, [DEPCRUISE, '--config', CONFIG, '--output-type', 'json', ...folders], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (run.status !== 0 && !run.stdout) throw new Error(`depcruise did not run: ${run.stderr}`);
    const report = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string } }[] } };
    return [...new Set(report.summary.violations.map((v) => v.rule.name))].sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the import rules of npm test', () => {
  it('pass a tree that keeps them', () => {
    expect(
      brokenRules({
        'lib/exchange-rules/cap.ts': 'export const CAP = 8;\n',
        'services/api/src/leg.ts': "import { CAP } from '../../../lib/exchange-rules/cap';\nexport const cap = CAP;\n",
      }),
    ).toEqual([]);
  });

  it('refuse two files that import each other', () => {
    expect(
      brokenRules({
        'lib/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
        'lib/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      }),
    ).toEqual(['no-file-cycle']);
  });

  it('refuse two folders that import each other, through different files', () => {
    expect(
      brokenRules({
        'lib/one/a.ts': "import { c } from '../two/c';\nexport const a = c;\n",
        'lib/one/b.ts': 'export const b = 1;\n',
        'lib/two/c.ts': 'export const c = 2;\n',
        'lib/two/d.ts': "import { b } from '../one/b';\nexport const d = b;\n",
      }),
    ).toEqual(['no-folder-cycle']);
  });

  it('refuse a service that imports the other service', () => {
    expect(
      brokenRules({
        'services/worker/src/worker.ts': 'export const worker = 1;\n',
        'services/api/src/app.ts': "import { worker } from '../../worker/src/worker';\nexport const app = worker;\n",
      }),
    ).toEqual(['services-apart']);
  });

  it('refuse lib importing what is built on it', () => {
    expect(
      brokenRules({
        'cli/main.ts': 'export const main = 1;\n',
        'lib/paths.ts': "import { main } from '../cli/main';\nexport const paths = main;\n",
      }),
    ).toEqual(['lib-at-the-bottom']);
  });

  it('refuse exchange rules that reach Postgres', () => {
    expect(
      brokenRules({
        'lib/db/pool.ts': 'export const pool = 1;\n',
        'lib/exchange-rules/leg-rules.ts': "import { pool } from '../db/pool';\nexport const rules = pool;\n",
      }),
    ).toEqual(['exchange-rules-are-pure']);
  });

  it('refuse a published package reaching into the repository', () => {
    expect(
      brokenRules({
        'lib/paths.ts': 'export const paths = 1;\n',
        'packages/handlers/src/index.ts': "import { paths } from '../../../lib/paths';\nexport const index = paths;\n",
      }),
    ).toEqual(['packages-stand-alone']);
  });
});
