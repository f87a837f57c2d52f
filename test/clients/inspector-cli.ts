/**
 * The MCP Inspector's CLI under test (`npx @modelcontextprotocol/inspector --cli`): one process per
 * call, as its users script it, each connecting, making its one request and printing the outcome
 * as JSON (`--format json`). Its command line has no flag for roots, so it is given the server as
 * its users give one with roots: a config file (`--config`, `--server`) naming the URL and the
 * one root every client under test lists. It cannot answer a form or a sampling request (it
 * declares neither); the scenarios show what that gives.
 *
 * What a call gave its user becomes the observation: the result it printed on stdout (also when it
 * exits 5 for a result with `isError`), or else the error it printed on stderr
 * (`{"error":{"code","message"}}`), named by its exit status.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PEERS, resultOf, type Connect } from './connected-client';
import type { Observation } from './observation';

const PACKAGE = '@modelcontextprotocol/inspector';

/** Its `mcp-inspector` bin (what `npx @modelcontextprotocol/inspector` runs), or why it is not installed. */
function launcher(): { bin: string } | { missing: string } {
  try {
    return {
      bin: path.join(path.dirname(require.resolve(`${PACKAGE}/package.json`)), 'clients/launcher/build/index.js'),
    };
  } catch {
    return { missing: `${PACKAGE} is not installed (npm ci installs it: a devDependency)` };
  }
}

/** Why the Inspector CLI cannot run here, or undefined when it can. */
export function inspectorCliMissing(): string | undefined {
  const found = launcher();
  return 'missing' in found ? found.missing : undefined;
}

export interface InspectorCliOptions {
  /** `--protocol-era`; without it, its default (`legacy`: a 2025-11-25 session per call). */
  protocolEra?: 'auto';
}

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/** The last line of `text` that parses as a JSON object, if any. */
function lastJson(text: string): Record<string, unknown> | undefined {
  for (const line of text.trim().split('\n').reverse()) {
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // a status line, not the outcome
    }
  }
  return undefined;
}

/** What one run gave its user. */
function observed(run: Run): Observation {
  const printed = lastJson(run.stdout)?.result as Parameters<typeof resultOf>[0] | undefined;
  if (printed) return resultOf(printed);
  const error = lastJson(run.stderr)?.error as { code?: unknown; message?: unknown } | undefined;
  return {
    kind: 'error',
    name: `exit ${run.status}`,
    ...(typeof error?.code === 'string' ? { code: error.code } : {}),
    message: typeof error?.message === 'string' ? error.message : run.stderr.slice(-500),
  };
}

export function inspectorCli(options: InspectorCliOptions = {}): Connect {
  return async (url) => {
    const found = launcher();
    if ('missing' in found) throw new Error(found.missing);
    // Its own home, so nothing it keeps (a catalog, secrets) outlives the test or comes from the machine's.
    const home = mkdtempSync(path.join(tmpdir(), 'inspector-cli-'));
    const config = path.join(home, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { service: { type: 'streamable-http', url, roots: [PEERS.root] } } }),
    );
    const running = new Set<ReturnType<typeof execFile>>();
    const run = (args: string[]) =>
      new Promise<Run>((resolve) => {
        const child = execFile(
          process.execPath,
          [
            found.bin,
            '--cli',
            '--config',
            config,
            '--server',
            'service',
            '--format',
            'json',
            ...(options.protocolEra ? ['--protocol-era', options.protocolEra] : []),
            ...args,
          ],
          { cwd: home, env: { ...process.env, HOME: home, MCP_INSPECTOR_SECRET_STORE: 'memory' } },
          (error, stdout, stderr) => {
            running.delete(child);
            const code = (error as { code?: unknown } | null)?.code;
            resolve({ status: typeof code === 'number' ? code : error ? -1 : 0, stdout, stderr });
          },
        );
        running.add(child);
      });
    return {
      async listTools() {
        const listed = await run(['--method', 'tools/list']);
        const tools = (lastJson(listed.stdout)?.result as { tools?: Array<{ name: string }> } | undefined)?.tools;
        if (!tools) throw new Error(`the Inspector CLI listed no tools: ${listed.stderr}`);
        return tools.map((tool) => tool.name);
      },
      call: async (name, args = {}) =>
        observed(await run(['--method', 'tools/call', '--tool-name', name, '--tool-args-json', JSON.stringify(args)])),
      async close() {
        for (const child of running) child.kill();
        rmSync(home, { recursive: true, force: true });
      },
    };
  };
}
