/**
 * The folder `durable-mcp dev` keeps its stack in (`.durable-mcp` in the project by default): the
 * embedded Postgres, the Temporal dev server's history, and secrets (key rings, the admin token,
 * the Postgres password). It carries a `.gitignore` of its own that ignores everything in it, so
 * none of that reaches a user's repository, whatever their own ignore files say.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const DATA_FOLDER_IGNORE = '# durable-mcp dev: local data and secrets, never committed\n*\n';

export function prepareDataFolder(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const ignore = path.join(dataDir, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, DATA_FOLDER_IGNORE);
}
