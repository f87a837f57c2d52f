/**
 * `npm run bench:open-waits-plot -- OUTPUT [--out FILE.svg] [--title TEXT]`: draws the curve of one
 * `npm run bench:open-waits` run (bench/open-waits-plot.ts) from what it printed (OUTPUT, the file
 * its stdout went to: the one-line JSON summary is read from it). Writes FILE.svg, or stdout.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseFlags } from './flags';
import type { Checkpoint } from './open-waits-report';
import { renderOpenWaitsPlot } from './open-waits-plot';

const USAGE = `npm run bench:open-waits-plot -- OUTPUT [--out FILE.svg] [--title TEXT]

OUTPUT is a file holding what npm run bench:open-waits printed on stdout.`;

function main(): number {
  const [file, ...rest] = process.argv.slice(2);
  if (!file || file.startsWith('--')) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const args = parseFlags(rest, [], ['out', 'title']);
  const summary = readFileSync(file, 'utf8')
    .split('\n')
    .find((line) => line.startsWith('{"bench":"open-waits"'));
  if (!summary) {
    process.stderr.write(`${file}: no open-waits summary line in it\n`);
    return 1;
  }
  const run = JSON.parse(summary) as { checkpoints: Checkpoint[]; target: string; date: string };
  const svg = renderOpenWaitsPlot(
    run.checkpoints,
    args.get('title') ?? `npm run bench:open-waits, ${run.target} target, ${run.date.slice(0, 10)}`,
  );
  const out = args.get('out');
  if (out) writeFileSync(out, svg);
  else process.stdout.write(svg);
  return 0;
}

process.exitCode = main();
