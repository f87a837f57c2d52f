/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, which needs
 * Node 22: the `node@22` dev dependency provides it) against a server URL, for one requirement
 * set, with that set's expected-failures file. Used by the integration test and by
 * `npm run conformance -- <url> [requirements]` against a running `npm run dev`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../lib/paths';

export interface ConformanceRun {
  exitCode: number;
  output: string;
}

export function expectedFailuresFile(requirements: string): string {
  return path.join(projectRoot(), 'conformance', `expected-failures-${requirements}.yml`);
}

export function runConformance(url: string, requirements: string, outputDir?: string): Promise<ConformanceRun> {
  const root = projectRoot();
  const node = path.join(root, 'node_modules', 'node', 'bin', 'node');
  const cli = path.join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const args = [cli, 'server', '--url', url, '--requirements', requirements];
  const expected = expectedFailuresFile(requirements);
  if (existsSync(expected)) args.push('--expected-failures', expected);
  if (outputDir) args.push('-o', outputDir);
  if (!existsSync(node)) {
    return Promise.reject(
      new Error(`the conformance suite needs Node 22 at ${node}: run npm ci (the node@22 dev dependency)`),
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
