/**
 * The docs are split by reader (README, docs/, bench/README.md), and they link into each other by
 * section: every relative link must reach a file that exists and, when it names a section, a heading
 * that file has. And the README stays a front page. Reads the files; no services are started.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';

const ROOT = projectRoot();
const README_MAX_LINES = 200;

const DOCS = [
  'README.md',
  'bench/README.md',
  'packages/handlers/README.md',
  'examples/refund-desk/README.md',
  'examples/approval-bot/README.md',
  'deploy/helm/durable-mcp/README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  // The per-provider deployment guides, linked from docs/security.md and docs/deploying.md.
  ...readdirSync(path.join(ROOT, 'docs', 'providers'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/providers/${name}`),
];

/** The text outside fenced code blocks. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```$/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (file: string) =>
  new Set([...prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));

/** Every `[label](target)` of a file whose target is not a URL, as `file -> target`. */
function brokenLinks(doc: string): string[] {
  const file = path.join(ROOT, doc);
  const broken: string[] = [];
  for (const [, target] of prose(readFileSync(file, 'utf8')).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:)/.test(target!)) continue;
    const [filePart, fragment] = target!.split('#') as [string, string | undefined];
    const resolved = filePart ? path.resolve(path.dirname(file), filePart) : file;
    const ok =
      existsSync(resolved) &&
      (!fragment || (statSync(resolved).isFile() && resolved.endsWith('.md') && anchorsOf(resolved).has(fragment)));
    if (!ok) broken.push(`${doc} -> ${target}`);
  }
  return broken;
}

describe('the docs', () => {
  it.each(DOCS)('%s links only to files and sections that exist', (doc) => {
    expect(brokenLinks(doc)).toEqual([]);
  });

  it(`README stays a front page: under ${README_MAX_LINES} lines, linking every guide in docs/`, () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(README_MAX_LINES);
    const guides = DOCS.filter((doc) => doc.startsWith('docs/') && !doc.startsWith('docs/providers/'));
    expect(guides.filter((doc) => !readme.includes(`(${doc})`))).toEqual([]);
  });
});
