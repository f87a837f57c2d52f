/**
 * A client under test run as a program of its own (python/client_shim.py, go/main.go): one
 * process per connection, driven over stdin/stdout one JSON line at a time. It prints
 * `{"ready":true}` once connected; each `{"id":n,"op":"call","name":..,"arguments":{..}}` is
 * answered `{"id":n,"observation":{..}}`, each `{"id":n,"op":"list"}` `{"id":n,"tools":[..]}`, in
 * any order (ops run concurrently); `{"op":"close"}` ends it.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ConnectedClient } from './connected-client';
import type { Observation } from './observation';

/** Starts `command` with `args` and waits until its client is connected; `label` names it in errors. */
export async function connectLineClient(command: string, args: string[], label: string): Promise<ConnectedClient> {
  const child = spawn(command, args, { cwd: '/', stdio: ['pipe', 'pipe', 'pipe'] });
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
  if (hello.ready !== true) throw new Error(`the ${label} client did not connect: ${JSON.stringify(hello)}`);

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
    if (key in reply) return reply[key] as T;
    if ('exited' in reply) throw new Error(`the ${label} client exited: ${String(reply.exited)}`);
    throw new Error(`the ${label} client answered without ${key}: ${JSON.stringify(reply)}`);
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
}
