/**
 * The Python upstream of the gateway's tests (test/gateway/python/upstream_server.py, the official
 * `mcp` 2.x SDK's `MCPServer` over Streamable HTTP), run by python3 on a loopback port it chooses.
 * Its stdout says the port, then each `tools/call` it was sent, as sent.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ReceivedCall } from './sdk-upstream';

const SERVER = path.join(__dirname, '..', 'gateway', 'python', 'upstream_server.py');
const PYTHON = 'python3';

/** Why the Python upstream cannot run here, or undefined when it can. */
export function pythonUpstreamMissing(): string | undefined {
  const probe = spawnSync(PYTHON, ['-c', 'import mcp.server.mcpserver, uvicorn'], { encoding: 'utf8', cwd: '/' });
  if (probe.error) return `${PYTHON} cannot run: ${probe.error.message}`;
  if (probe.status !== 0) return `${PYTHON} cannot import the mcp 2.x server (pip install mcp==2.3.0; .ci/run)`;
  return undefined;
}

export interface PythonUpstream {
  url: string;
  calls: ReceivedCall[];
  close(): Promise<void>;
}

export async function startPythonUpstream(): Promise<PythonUpstream> {
  const child = spawn(PYTHON, [SERVER], { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const calls: ReceivedCall[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const said = JSON.parse(line) as { listening?: number; call?: ReceivedCall };
      if (said.listening !== undefined) resolve(said.listening);
      if (said.call) calls.push(said.call);
    });
    void exited.then(() => reject(new Error(`the Python upstream exited: ${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
