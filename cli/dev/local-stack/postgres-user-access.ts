/**
 * As root (a container, CI), the embedded Postgres runs as the OS user `postgres`, which must
 * reach both its binaries inside node_modules and the data folder. Neither is reachable under a
 * folder other users cannot enter (`/root`, mode 700), where Postgres would die with a bare
 * `spawn … initdb EACCES`. This says so in one line, with what to do, before anything starts. The
 * user is "other" to every folder root owns, so the check reads the folders' other-execute bits.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { StartError } from '../../../lib/start-error';

type Stat = (file: string) => { mode: number };

/** The first folder on the way to `target` (itself included) that others cannot enter, if any. */
export function closedFolderOnTheWay(target: string, stat: Stat = statSync): string | undefined {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  for (let depth = 0; depth <= parts.length; depth++) {
    const folder = path.sep + parts.slice(0, depth).join(path.sep);
    let mode: number;
    try {
      mode = stat(folder).mode;
    } catch {
      return undefined; // not there yet: created below what is checked
    }
    if ((mode & 0o001) === 0) return folder;
  }
  return undefined;
}

/** Throws a one-line StartError when, running as root, the `postgres` user could not reach `binary` or `dataDir`. */
export function checkPostgresUserAccess(binary: string | undefined, dataDir: string, stat: Stat = statSync): void {
  if (process.getuid?.() !== 0) return;
  // The data folder itself is Postgres's own (the package gives it to the user, mode 700): only
  // the way to it must be open.
  const targets: Array<[string, string]> = [['its data folder', path.dirname(path.resolve(dataDir))]];
  if (binary !== undefined) targets.unshift(['its binaries', path.dirname(binary)]);
  for (const [what, target] of targets) {
    const closed = closedFolderOnTheWay(target, stat);
    if (closed)
      throw new StartError(
        `as root, the embedded Postgres runs as the OS user postgres, who cannot enter ${closed} to reach ${what} (${target}): run as another user, make it enterable (chmod o+x ${closed}), or keep the project and its --data-dir outside it`,
      );
  }
}
