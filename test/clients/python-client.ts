/**
 * A Python client under test (the `mcp` SDK's `Client`, FastMCP's `fastmcp.Client`, or LangChain's
 * `MultiServerMCPClient`), run as python/client_shim.py: one process per connection, driven one
 * JSON line at a time (line-client.ts), so the scenarios run through it as through the TypeScript
 * clients.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { Connect } from './connected-client';
import { connectLineClient } from './line-client';

const SHIM = path.join(__dirname, 'python', 'client_shim.py');

/**
 * The interpreter of each client. LangChain's adapters pin the 1.x `mcp` SDK, which cannot sit
 * beside the 2.x the others use: .ci/run installs them in a virtual environment of their own.
 */
const LANGCHAIN_PYTHON =
  process.env.LANGCHAIN_PYTHON ?? path.join(os.homedir(), '.cache', 'durable-mcp', 'langchain-venv', 'bin', 'python');
const PYTHONS = {
  mcp: { python: 'python3', module: 'mcp', install: 'pip install mcp==2.3.0' },
  fastmcp: { python: 'python3', module: 'fastmcp', install: 'pip install fastmcp==4.2.3' },
  langchain: {
    python: LANGCHAIN_PYTHON,
    module: 'langchain_mcp_adapters',
    install: `python3 -m venv; pip install langchain-mcp-adapters==0.3.2 (.ci/run)`,
  },
};

type PythonClientName = keyof typeof PYTHONS;

/** Why the client `client` cannot run here, or undefined when it can. */
export function pythonModuleMissing(client: PythonClientName): string | undefined {
  const { python, module, install } = PYTHONS[client];
  const probe = spawnSync(python, ['-c', `import ${module}`], { encoding: 'utf8', cwd: '/' });
  if (probe.error) return `${python} cannot run: ${probe.error.message}`;
  if (probe.status !== 0) return `${python} cannot import ${module} (${install})`;
  return undefined;
}

export interface PythonClientOptions {
  client: PythonClientName;
  /** The client's `mode`: `auto` (its default: server/discover, then initialize) or `legacy`. */
  mode: 'auto' | 'legacy';
  /** `input_required_max_rounds` (10 by default). */
  maxRounds: number;
}

export function pythonClient(options: PythonClientOptions): Connect {
  return (url) =>
    connectLineClient(
      PYTHONS[options.client].python,
      [
        SHIM,
        '--client',
        options.client,
        '--mode',
        options.mode,
        '--url',
        url,
        '--max-rounds',
        String(options.maxRounds),
      ],
      `Python ${options.client}`,
    );
}
