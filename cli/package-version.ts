/** The version of the durable-mcp package this command runs from (its package.json, at the project root). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../lib/paths';

export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version?: string };
  return manifest.version ?? 'unknown';
}
