/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, which needs
 * Node 22 or later) on the project's Node (the `node` dev dependency) against a server URL, for
 * one requirement set, with that set's expected-failures file. Used by the integration test and by
 * `npm run conformance -- <url> [requirements]` against a running `npm run dev`.
 *
 * The suite runs the set's not-scored scenarios too, but never fails a run on them; those listed
 * in `required-not-scored-<set>.yml` (the Tasks extension's) are required here: the run fails when
 * one of them has a failed check or did not run (`notScoredProblems`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../lib/paths';

export interface ConformanceRun {
  exitCode: number;
  output: string;
}

export function expectedFailuresFile(requirements: string): string {
  return path.join(projectRoot(), 'conformance', `expected-failures-${requirements}.yml`);
}

/** A not-scored scenario this server must pass; `skippedUpstream` says why its skipped checks are accepted. */
export interface RequiredScenario {
  scenario: string;
  skippedUpstream?: string;
}

export function requiredNotScored(requirements: string): RequiredScenario[] {
  const file = path.join(projectRoot(), 'conformance', `required-not-scored-${requirements}.yml`);
  if (!existsSync(file)) return [];
  const listed = (parse(readFileSync(file, 'utf8')) as { server?: Array<Record<string, string>> }).server ?? [];
  return listed.map((entry) => ({
    scenario: entry.scenario!,
    ...(entry.skipped_upstream ? { skippedUpstream: entry.skipped_upstream } : {}),
  }));
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/**
 * What is wrong with the required scenarios' results in `outputDir` (one `server-<scenario>-<time>`
 * folder per scenario run, each with its checks.json): a scenario that did not run, a failed
 * check, a skipped check the list does not accept. Empty when they all passed; `notes` says how
 * each accepted skip was reported.
 */
export function notScoredProblems(
  outputDir: string,
  required: RequiredScenario[],
): { problems: string[]; notes: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  const folders = existsSync(outputDir) ? readdirSync(outputDir) : [];
  for (const { scenario, skippedUpstream } of required) {
    const folder = folders.find((name) => new RegExp(`^server-${scenario}-\\d{4}-`).test(name));
    if (!folder) {
      problems.push(`${scenario}: did not run`);
      continue;
    }
    const checks = JSON.parse(readFileSync(path.join(outputDir, folder, 'checks.json'), 'utf8')) as Check[];
    for (const check of checks) {
      if (check.status === 'FAILURE') problems.push(`${scenario}: ${check.id} failed: ${check.errorMessage ?? ''}`);
      else if (check.status === 'SKIPPED' && !skippedUpstream) problems.push(`${scenario}: ${check.id} was skipped`);
      else if (check.status === 'SKIPPED')
        notes.push(`${scenario}: ${check.id} skipped by the suite (${skippedUpstream})`);
    }
  }
  return { problems, notes };
}

export async function runConformance(url: string, requirements: string, outputDir?: string): Promise<ConformanceRun> {
  const results = outputDir ?? mkdtempSync(path.join(os.tmpdir(), `conformance-${requirements}-`));
  const run = await runSuite(url, requirements, results);
  const { problems, notes } = notScoredProblems(results, requiredNotScored(requirements));
  const report = [
    ...notes.map((note) => `  note: ${note}`),
    ...problems.map((problem) => `  required but not scored: ${problem}`),
  ];
  if (report.length === 0) return run;
  return {
    exitCode: problems.length > 0 ? 1 : run.exitCode,
    output: `${run.output}\nRequired not-scored scenarios (conformance/required-not-scored-${requirements}.yml):\n${report.join('\n')}\n`,
  };
}

function runSuite(url: string, requirements: string, outputDir: string): Promise<ConformanceRun> {
  const root = projectRoot();
  const node = path.join(root, 'node_modules', 'node', 'bin', 'node');
  const cli = path.join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const args = [cli, 'server', '--url', url, '--requirements', requirements];
  const expected = expectedFailuresFile(requirements);
  if (existsSync(expected)) args.push('--expected-failures', expected);
  args.push('-o', outputDir);
  if (!existsSync(node)) {
    return Promise.reject(
      new Error(`the conformance suite runs on the project's Node at ${node}: run npm ci (the node dev dependency)`),
    );
  }
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ exitCode: code ?? 1, output }));
  });
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
