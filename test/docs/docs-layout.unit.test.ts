/**
 * The layout table of docs/architecture.md is how a newcomer finds their way: it must name every folder that
 * holds code and nothing that is gone, and every file the document cites must be where it says.
 * Reads the document and the tree; no services are started.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';

const ROOT = projectRoot();
/** Top-level folders that hold no product code: tooling state and dependencies. */
const NOT_LAID_OUT = new Set(['node_modules', 'dist', 'coverage']);
/** Folders whose every subfolder the table names, because the architecture shows there. */
const DETAILED = ['lib', 'services/api/src'];

/** The rows of the layout table (the first table under "## Layout"): each folder with its role. */
function layoutRows(doc: string): Array<{ folder: string; role: string }> {
  const lines = doc.slice(doc.indexOf('## Layout')).split('\n');
  const header = lines.findIndex((line) => line.startsWith('| Folder |'));
  const end = lines.findIndex((line, i) => i > header && !line.startsWith('|'));
  return lines
    .slice(header, end)
    .map((line) => /^\| `([^`]+)` \| (.*) \|$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, folder, role]) => ({ folder: folder!, role: role! }));
}

const subfolders = (dir: string) =>
  readdirSync(path.join(ROOT, dir)).filter(
    (name) => !name.startsWith('.') && statSync(path.join(ROOT, dir, name)).isDirectory(),
  );

describe('docs/architecture.md layout table', () => {
  const named = layoutRows(readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8')).map((row) => row.folder);

  it('is found', () => {
    expect(named.length).toBeGreaterThan(10);
  });

  it('names only folders that exist', () => {
    expect(named.filter((folder) => !existsSync(path.join(ROOT, folder)))).toEqual([]);
  });

  it('names every top-level folder', () => {
    const top = subfolders('.').filter((name) => !NOT_LAID_OUT.has(name));
    const covered = (folder: string) => named.some((entry) => entry === folder || entry.startsWith(`${folder}/`));
    expect(top.filter((folder) => !covered(folder))).toEqual([]);
  });

  it.each(DETAILED)('names every folder of %s', (parent) => {
    const folders = subfolders(parent).map((name) => `${parent}/${name}`);
    expect(folders.filter((folder) => !named.includes(folder))).toEqual([]);
  });
});

/** Every file and folder below the root (not dependencies or build output), as root-relative paths. */
function treePaths(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(ROOT, dir))) {
      if (name.startsWith('.') || (dir === '' && NOT_LAID_OUT.has(name)) || name === 'node_modules') continue;
      const rel = dir ? `${dir}/${name}` : name;
      out.push(rel);
      if (statSync(path.join(ROOT, rel)).isDirectory()) walk(rel);
    }
  };
  walk('');
  return out;
}

/** A backticked name that reads as a file (`leg-rules.ts`, `routes/mcp.ts`) or a repository path (`lib/db`). */
function citedPaths(text: string, topFolders: Set<string>): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!.replace(/\/$/, ''))
    .filter(
      (name) =>
        /^[\w.-]+(\/[\w.-]+)*\.(ts|md|yml|sql|cjs|mjs|js)$/.test(name) ||
        (/^[\w-]+(\/[\w.-]+)+$/.test(name) && topFolders.has(name.split('/')[0]!)),
    );
}

describe('docs/architecture.md names only what is in the tree', () => {
  const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const tree = treePaths();
  const topFolders = new Set(subfolders('.'));
  const found = (name: string, under = '') =>
    tree.some((p) => (under === '' || p.startsWith(`${under}/`)) && (p === name || p.endsWith(`/${name}`)));

  it('cites files and folders that exist', () => {
    expect(citedPaths(doc, topFolders).filter((name) => !found(name))).toEqual([]);
  });

  it('cites, in each row of the layout table, files inside that row’s folder', () => {
    const rows = layoutRows(doc);
    expect(rows.length).toBeGreaterThan(10);
    const misplaced = rows.flatMap(({ folder, role }) =>
      citedPaths(role, topFolders)
        .filter((name) => !topFolders.has(name.split('/')[0]!) && !found(name, folder))
        .map((name) => `${folder}: ${name}`),
    );
    expect(misplaced).toEqual([]);
  });
});
