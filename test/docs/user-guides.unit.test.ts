/**
 * The user guides are read by people who run, configure, connect to or write tools for the service,
 * not by its maintainers: they state what it does as plain facts, and name no test file (which
 * tests hold what is for docs/development.md and docs/architecture.md). Their tables stay tables: a
 * cell longer than a paragraph belongs in prose under the table. And the deploy guide opens with
 * what a newcomer runs first, `docker compose up`. Reads the files; no services are started.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';

const ROOT = projectRoot();
const MAX_CELL = 400;

const GUIDES = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'packages'))
    .filter((name) => !name.startsWith('.'))
    .map((name) => `packages/${name}/README.md`),
  'docs/deploying.md',
  'docs/operators.md',
  'docs/handler-authors.md',
  'docs/security.md',
  'docs/protocol.md',
  'docs/configuration.md',
  'deploy/helm/durable-mcp/README.md',
];

/**
 * docs/configuration.md is generated (`npm run docs:config`) from the variables' own docs in
 * lib/config/variables, one table row per variable: a long cell is shortened there, not here, so
 * its cells are exempt. It is held to the rule on test files like every other guide.
 */
const CELLS_EXEMPT = new Set(['docs/configuration.md']);

/** A test file (`*.test.ts`, `*.int.test.ts`, ...), a path under a `test/` folder, or a jest filter. */
const TEST_CITATION = /\.test\.[cm]?[jt]sx?\b|(?<![\w-])test\/|testPathPatterns|\btested by\b/i;

const read = (doc: string) => readFileSync(path.join(ROOT, doc), 'utf8');

/** The lines outside fenced code blocks, each with its line number. */
function proseLines(markdown: string): { line: string; n: number }[] {
  let fenced = false;
  const out: { line: string; n: number }[] = [];
  markdown.split('\n').forEach((line, i) => {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced) out.push({ line, n: i + 1 });
  });
  return out;
}

/** Every line of a guide, fenced code included, that cites a test, as `line: text`. */
const testCitations = (doc: string) =>
  read(doc)
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => TEST_CITATION.test(line))
    .map(({ line, n }) => `${n}: ${line}`);

/** Every table cell of a guide longer than MAX_CELL characters, as `line: length, start of it`. */
const longCells = (doc: string) =>
  proseLines(read(doc))
    .filter(({ line }) => line.startsWith('|'))
    .flatMap(({ line, n }) =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim())
        .filter((cell) => cell.length > MAX_CELL)
        .map((cell) => `${n}: ${cell.length} characters, ${cell.slice(0, 60)}…`),
    );

describe('the user guides', () => {
  it.each(GUIDES)('%s cites no test file', (doc) => {
    expect(testCitations(doc)).toEqual([]);
  });

  it.each(GUIDES.filter((doc) => !CELLS_EXEMPT.has(doc)))(`%s has no table cell over ${MAX_CELL} characters`, (doc) => {
    expect(longCells(doc)).toEqual([]);
  });

  it('catch what they are meant to', () => {
    const cites = (line: string) => TEST_CITATION.test(line);
    expect(
      [
        '`test/operating/shutdown.int.test.ts` stops a real API process',
        'run it with `npx jest --testPathPatterns shutdown`',
        'the fixtures (`../test/fixtures/histories-bound`)',
        'as tested by the fault suite',
      ].filter((line) => !cites(line)),
    ).toEqual([]);
    expect(
      ['`npm test` checks the file', 'npm run test:faults', '@durable-mcp/testing', 'the latest/ folder'].filter(cites),
    ).toEqual([]);
  });
});

describe('docs/deploying.md', () => {
  const lines = proseLines(read('docs/deploying.md')).map(({ line }) => line);
  const headings = lines.map((line, i) => ({ line, i })).filter(({ line }) => /^#{1,6} /.test(line));
  const sections = headings.filter(({ line }) => line.startsWith('## '));
  /** The first `##` section, its subsections included. */
  const first = lines.slice(sections[0]?.i, sections[1]?.i).join('\n');

  it('opens with a title, then a section on docker compose', () => {
    expect(headings[0]?.line).toMatch(/^# /);
    expect(headings[1]?.line).toMatch(/^## .*docker compose/i);
  });

  it('has its first section say `docker compose up`', () => {
    expect(first).toContain('docker compose up');
  });
});
