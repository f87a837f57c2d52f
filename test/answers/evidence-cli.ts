/**
 * `durable-mcp evidence ...` run in the test's process, as an auditor would run it: its output,
 * its error output and its exit code; and the one change to an export a tamper test makes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { run } from '../../cli/evidence/evidence-command';

export async function evidence(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/**
 * Writes `file` again as `to`, with one byte of line `line`'s signed payload changed: what a
 * third party's verification must catch, naming that line's entry. Returns the entry's `seq`.
 */
export function changeOneByte(file: string, line: number, to: string): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  const original = lines[line]!;
  const at = original.indexOf('"jws":"') + 7 + 150; // inside the entry's signed payload
  lines[line] = `${original.slice(0, at)}${original[at] === 'A' ? 'B' : 'A'}${original.slice(at + 1)}`;
  writeFileSync(to, lines.join('\n'));
  return (JSON.parse(original) as { seq: number }).seq;
}
