/** Where the project lives on disk, from sources or from a build. */
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The project root (the folder holding package.json), whether running from sources or from dist/. */
export function projectRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}
