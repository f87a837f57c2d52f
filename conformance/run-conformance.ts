/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, which needs
 * Node 22: the `node@22` dev dependency provides it) against a server URL, for one requirement
 * set, with that set's expected-failures file, then each not-scored scenario that set's
 * required-extra file (`required-extra.ts`) lists, on its own, failing on any failed check. Used by
 * the integration test and by `npm run conformance -- <url> [requirements]` against a running
 * `npm run dev`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../lib/paths';
import { readRequiredExtra, requiredExtraFile } from './required-extra';

export interface ConformanceRun {
  exitCode: number;
  output: string;
}

export function expectedFailuresFile(requirements: string): string {
  return path.join(projectRoot(), 'conformance', `expected-failures-${requirements}.yml`);
}

function runCli(node: string, args: string[]): Promise<ConformanceRun> {
  const cli = path.join(projectRoot(), 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  return new Promise((resolve, reject) => {
    const child = spawn(node, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ exitCode: code ?? 1, output }));
  });
}

export async function runConformance(url: string, requirements: string, outputDir?: string): Promise<ConformanceRun> {
  const node = path.join(projectRoot(), 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(node)) {
    throw new Error(`the conformance suite needs Node 22 at ${node}: run npm ci (the node@22 dev dependency)`);
  }
  const output = outputDir ? ['-o', outputDir] : [];
  const expected = expectedFailuresFile(requirements);
  const set = await runCli(node, [
    'server',
    '--url',
    url,
    '--requirements',
    requirements,
    ...(existsSync(expected) ? ['--expected-failures', expected] : []),
    ...output,
  ]);
  const runs = [set];

  const extra = readRequiredExtra(requirements);
  if (extra.stale.length > 0) {
    runs.push({
      exitCode: 1,
      output:
        `\n${requiredExtraFile(requirements)}: not a not-scored server scenario of ${requirements} ` +
        `(scored now, or misspelt; remove it): ${extra.stale.join(', ')}\n`,
    });
  }
  const verdicts: string[] = [];
  for (const scenario of extra.scenarios) {
    // --force: the suite skips (and passes) a scenario it deems not applicable at the version,
    // extensions among them; the requirement set's own run forces them the same way.
    const run = await runCli(node, [
      'server',
      '--url',
      url,
      '--scenario',
      scenario,
      '--spec-version',
      requirements,
      '--force',
      ...output,
    ]);
    runs.push({
      exitCode: run.exitCode,
      output: `\n=== Required beyond the scored set: ${scenario} ===\n${run.output}`,
    });
    verdicts.push(`  ${run.exitCode === 0 ? '✓' : '✗'} ${scenario}`);
  }
  if (verdicts.length > 0) {
    runs.push({ exitCode: 0, output: `\nNot scored by ${requirements}, required here:\n${verdicts.join('\n')}\n` });
  }
  return {
    exitCode: runs.some((run) => run.exitCode !== 0) ? 1 : 0,
    output: runs.map((run) => run.output).join(''),
  };
}

if (require.main === module) {
  const [url = 'http://127.0.0.1:3000/mcp', requirements = '2026-07-28'] = process.argv.slice(2);
  runConformance(url, requirements)
    .then(({ exitCode, output }) => {
      process.stdout.write(output);
      process.exit(exitCode);
    })
    .catch((error) => {
      process.stderr.write(`conformance run failed: ${(error as Error).stack ?? error}\n`);
      process.exit(1);
    });
}
