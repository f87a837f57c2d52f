/**
 * `.env` as compose reads it for interpolation: `KEY=VALUE` lines (an `export ` before the key is
 * allowed), `#` comment lines and blank lines skipped, one pair of matching quotes around a value
 * removed. Absent file: no variables.
 */
import { existsSync, readFileSync } from 'node:fs';

export function parseDotEnv(text: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('#')) continue;
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (m) variables[m[1]!] = m[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return variables;
}

export function readDotEnv(file: string): Record<string, string> {
  return existsSync(file) ? parseDotEnv(readFileSync(file, 'utf8')) : {};
}
