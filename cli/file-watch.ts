/**
 * Calls back once a burst of file changes settles: what `durable-mcp dev` reloads on. It watches
 * the files a handler module is made of (its module graph, dev/module-graph.ts: walked again at
 * each reload, so a new import is watched from the next save on) and the paths named with
 * `--watch` (a file, or a folder and everything in it). Nothing else in the project counts: a
 * client script, a test, `package-lock.json`. Dependencies, version control and the stack's own
 * data are never watched.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

const IGNORED_FOLDERS = new Set(['node_modules', '.git']);
/** Editors and `tsc --watch` write several files in a row: one reload for all of them. */
const SETTLE_MS = 250;

export interface FileWatch {
  /** Walks the module graph again and watches what it is made of now. */
  refresh(): void;
  close(): void;
}

export interface FileWatchOptions {
  /** The files the module is made of now (called again at each `refresh`). */
  moduleFiles: () => string[];
  /** More paths to watch (`--watch`): a file, or a folder and all below it. */
  extra: string[];
  /** Folders whose changes never count (the data folder). */
  ignore: string[];
  onChange(file: string): void;
}

const isFolder = (file: string) => {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
};

/** Whether a change to `file` counts, given the module's files and the extra paths. */
export function countsAsChange(
  file: string,
  moduleFiles: ReadonlySet<string>,
  extra: readonly string[],
  ignore: readonly string[],
): boolean {
  if (ignore.some((folder) => file.startsWith(path.resolve(folder) + path.sep))) return false;
  if (moduleFiles.has(file)) return true;
  return extra.some((watched) => {
    if (file === watched) return true;
    const below = path.relative(watched, file);
    return (
      !below.startsWith('..') &&
      !path.isAbsolute(below) &&
      !below.split(path.sep).some((part) => IGNORED_FOLDERS.has(part))
    );
  });
}

export function watchFiles(options: FileWatchOptions): FileWatch {
  const extra = options.extra.map((file) => path.resolve(file));
  let files = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let last = '';
  const watchers = new Map<string, FSWatcher>();

  const changed = (folder: string, name: string | Buffer | null) => {
    if (!name) return;
    const file = path.join(folder, name.toString());
    if (!countsAsChange(file, files, extra, options.ignore)) return;
    last = file;
    clearTimeout(timer);
    timer = setTimeout(() => options.onChange(last), SETTLE_MS);
  };
  const watchFolder = (folder: string, recursive: boolean) => {
    const key = `${recursive ? 'r' : 'f'}:${folder}`;
    if (watchers.has(key)) return key;
    try {
      watchers.set(
        key,
        watch(folder, { recursive }, (_event, name) => changed(folder, name)),
      );
    } catch {
      // a folder gone since it was named: nothing to watch there until the next refresh
    }
    return key;
  };
  const refresh = () => {
    files = new Set(options.moduleFiles());
    const wanted = new Set<string>();
    // A file's folder, not the file: editors save by writing a new file and renaming it over the old.
    for (const file of files) wanted.add(watchFolder(path.dirname(file), false));
    for (const watched of extra)
      wanted.add(isFolder(watched) ? watchFolder(watched, true) : watchFolder(path.dirname(watched), false));
    for (const [key, watcher] of watchers)
      if (!wanted.has(key)) {
        watcher.close();
        watchers.delete(key);
      }
  };
  refresh();
  return {
    refresh,
    close() {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
