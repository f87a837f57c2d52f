/**
 * Calls back once a burst of file changes under some folders settles: what `durable-mcp dev`
 * reloads on. Dependencies, version control and the stack's own data are not watched, and only
 * files a handler module is made of (code and JSON) count.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

const IGNORED_FOLDERS = new Set(['node_modules', '.git']);
const MODULE_FILE = /\.(ts|mts|cts|tsx|js|mjs|cjs|json)$/;
/** Editors and `tsc --watch` write several files in a row: one reload for all of them. */
const SETTLE_MS = 250;

export interface FileWatch {
  close(): void;
}

export function watchFiles(folders: string[], ignore: string[], onChange: (file: string) => void): FileWatch {
  const ignored = ignore.map((folder) => path.resolve(folder) + path.sep);
  let timer: NodeJS.Timeout | undefined;
  let last = '';
  const changed = (folder: string, name: string | null) => {
    if (!name) return;
    const file = path.join(folder, name);
    const parts = path.relative(folder, file).split(path.sep);
    if (parts.some((part) => IGNORED_FOLDERS.has(part)) || !MODULE_FILE.test(file)) return;
    if (ignored.some((prefix) => file.startsWith(prefix))) return;
    last = file;
    clearTimeout(timer);
    timer = setTimeout(() => onChange(last), SETTLE_MS);
  };
  const watchers: FSWatcher[] = folders.map((folder) =>
    watch(folder, { recursive: true }, (_event, name) => changed(folder, name)),
  );
  return {
    close() {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
