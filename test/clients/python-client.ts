/**
 * A Python client under test (the `mcp` SDK's `Client`, or FastMCP's `fastmcp.Client`), run as
 * python/client_shim.py: one process per connection, driven one JSON line at a time, so the
 * scenarios run through it as through the TypeScript clients.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Connect } from './connected-client';
import type { Observation } from './observation';

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
  return async (url) => {
    const child = spawn(
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
      { cwd: '/', stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
    const waiting = new Map<number, (reply: Record<string, unknown>) => void>();
    let ready: (reply: Record<string, unknown>) => void = () => undefined;
    const first = new Promise<Record<string, unknown>>((resolve) => (ready = resolve));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const reply = JSON.parse(line) as Record<string, unknown>;
      if (typeof reply.id === 'number') waiting.get(reply.id)?.(reply);
      else ready(reply);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    void exited.then(() => {
      ready({ exited: stderr });
      for (const resolve of waiting.values()) resolve({ exited: stderr });
    });
    const hello = await first;
    if (hello.ready !== true)
      throw new Error(`the Python ${options.client} client did not connect: ${JSON.stringify(hello)}`);

    let next = 0;
    const send = (request: Record<string, unknown>) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const id = ++next;
        waiting.set(id, (reply) => {
          waiting.delete(id);
          resolve(reply);
        });
        child.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
      });
    const replied = <T>(reply: Record<string, unknown>, key: string): T => {
      if (!(key in reply)) throw new Error(`the Python ${options.client} client exited: ${String(reply.exited)}`);
      return reply[key] as T;
    };
    return {
      listTools: async () => replied<string[]>(await send({ op: 'list' }), 'tools'),
      call: async (name, args = {}) =>
        replied<Observation>(await send({ op: 'call', name, arguments: args }), 'observation'),
      async close() {
        child.stdin.write(`${JSON.stringify({ op: 'close' })}\n`);
        const timer = setTimeout(() => child.kill(), 5_000);
        await exited;
        clearTimeout(timer);
      },
    };
  };
}
