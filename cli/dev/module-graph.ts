/**
 * The files a handler module is made of, for `durable-mcp dev` to reload on: the module file and
 * the local files it imports, transitively (static `import`/`export ... from`, `import()` and
 * `require()` with a literal path). Packages (`node_modules`, a bare specifier) are not followed: a
 * reinstall is not a save. What cannot be read or resolved is left out rather than failing, since
 * the module may be half-written while its author types; the next save walks the graph again.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** What a relative specifier may name, tried in order: as written, then with an extension, then as a folder's index. */
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];
/** TypeScript's ESM style names the emitted `.js` of a `.ts` file. */
const EMITTED: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
  '.jsx': ['.tsx'],
};

const SPECIFIERS = [
  /\b(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"\n]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
];

/** The specifiers a source file imports (any kind), in the order found. */
export function importedSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found: string[] = [];
  for (const pattern of SPECIFIERS) for (const match of code.matchAll(pattern)) found.push(match[1]!);
  return found;
}

const isFile = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The file a relative specifier from `fromFile` names, or undefined. */
export function resolveLocal(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..')
    return path.isAbsolute(specifier) ? resolveTarget(specifier) : undefined;
  return resolveTarget(path.resolve(path.dirname(fromFile), specifier));
}

function resolveTarget(target: string): string | undefined {
  const candidates = [target, ...EXTENSIONS.map((ext) => target + ext)];
  const ext = path.extname(target);
  for (const emitted of EMITTED[ext] ?? []) candidates.push(target.slice(0, -ext.length) + emitted);
  candidates.push(...EXTENSIONS.map((index) => path.join(target, `index${index}`)));
  return candidates.find(isFile);
}

/** The entry file of a module path: the file itself, or a folder's `package.json` main or index file. */
export function entryFile(modulePath: string): string | undefined {
  if (isFile(modulePath)) return modulePath;
  const manifest = path.join(modulePath, 'package.json');
  if (existsSync(manifest)) {
    try {
      const { main } = JSON.parse(readFileSync(manifest, 'utf8')) as { main?: string };
      const named = main ? resolveTarget(path.resolve(modulePath, main)) : undefined;
      if (named) return named;
    } catch {
      // an unreadable manifest: try the index files
    }
  }
  return resolveTarget(modulePath);
}

const inPackages = (file: string) => file.split(path.sep).includes('node_modules');

/** Every local file the module at `modulePath` is made of, itself first; empty when there is no such file. */
export function moduleGraph(modulePath: string): string[] {
  const entry = entryFile(path.resolve(modulePath));
  if (!entry) return [];
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (path.extname(file) === '.json') continue;
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const specifier of importedSpecifiers(source)) {
      const imported = resolveLocal(file, specifier);
      if (!imported || inPackages(imported) || seen.has(imported)) continue;
      seen.add(imported);
      queue.push(imported);
    }
  }
  return [...seen];
}
