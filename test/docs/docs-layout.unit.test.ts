/**
 * The layout table of docs/architecture.md is how a newcomer finds their way: it must name every folder that
 * holds code and nothing that is gone. Reads the table and the tree; no services are started.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';

const ROOT = projectRoot();
/** Top-level folders that hold no product code: tooling state and dependencies. */
const NOT_LAID_OUT = new Set(['node_modules', 'dist', 'coverage']);
/** Folders whose every subfolder the table names, because the architecture shows there. */
const DETAILED = ['lib', 'services/api/src'];

/** The folders of the layout table: the first table under "## Layout", one row per folder. */
function tableFolders(readme: string): string[] {
  const lines = readme.slice(readme.indexOf('## Layout')).split('\n');
  const header = lines.findIndex((line) => line.startsWith('| Folder |'));
  const end = lines.findIndex((line, i) => i > header && !line.startsWith('|'));
  return lines
    .slice(header, end)
    .map((line) => /^\| `([^`]+)` \|/.exec(line)?.[1])
    .filter((folder): folder is string => folder !== undefined);
}

const subfolders = (dir: string) =>
  readdirSync(path.join(ROOT, dir)).filter(
    (name) => !name.startsWith('.') && statSync(path.join(ROOT, dir, name)).isDirectory(),
  );

describe('docs/architecture.md layout table', () => {
  const named = tableFolders(readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8'));

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
