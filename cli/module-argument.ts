/**
 * A module named on the command line: `tools.ts` there means the file in the working directory, as
 * a shell user expects, though HANDLERS would read it as a package name. A file that exists is
 * named by its absolute path; anything else (a package, a built-in set, a path to report missing)
 * is passed on as it was written.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export function moduleArgument(argument: string, cwd: string = process.cwd()): string {
  const file = path.resolve(cwd, argument);
  return existsSync(file) ? file : argument;
}
