/**
 * A Python client under test (the `mcp` SDK's `Client`, or FastMCP's `fastmcp.Client`), run as
 * python/client_shim.py: one process per connection, driven one JSON line at a time
 * (line-client.ts), so the scenarios run through it as through the TypeScript clients.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Connect } from './connected-client';
import { connectLineClient } from './line-client';

const SHIM = path.join(__dirname, 'python', 'client_shim.py');

/** Why `python3` cannot run the client whose module is `module` here, or undefined when it can. */
export function pythonModuleMissing(module: 'mcp' | 'fastmcp'): string | undefined {
  const probe = spawnSync('python3', ['-c', `import ${module}`], { encoding: 'utf8', cwd: '/' });
  if (probe.error) return `python3 cannot run: ${probe.error.message}`;
  if (probe.status !== 0) return `python3 cannot import ${module} (pip install mcp==2.3.0 fastmcp==4.2.3)`;
  return undefined;
}

export interface PythonClientOptions {
  client: 'mcp' | 'fastmcp';
  /** The client's `mode`: `auto` (its default: server/discover, then initialize) or `legacy`. */
  mode: 'auto' | 'legacy';
  /** `input_required_max_rounds` (10 by default). */
  maxRounds: number;
}

export function pythonClient(options: PythonClientOptions): Connect {
  return (url) =>
    connectLineClient(
      'python3',
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
