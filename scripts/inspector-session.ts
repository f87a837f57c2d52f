/**
 * A Chrome DevTools Protocol session on a Node process's inspector (`--inspect`), reaching its
 * worker threads too: the Temporal worker runs workflows in a thread of its own, so a round's
 * workflow code is only seen there. Uses Node's own WebSocket; one request at a time per target.
 */
import { readFileSync } from 'node:fs';
import { until } from '../cli/dev/readiness';

type Message = { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

export interface InspectorTarget {
  /** Sends one protocol command and resolves with its result. */
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
}

export interface InspectorSession extends InspectorTarget {
  /** The process's worker threads, as targets (attached on `connect`). */
  threads(): InspectorTarget[];
  /** Calls `listener` with the params of each event `method` of the main thread (e.g. a heap snapshot's chunks). */
  on(method: string, listener: (params: Record<string, unknown>) => void): () => void;
  close(): void;
}

export async function connectInspector(url: string): Promise<InspectorSession> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`no inspector at ${url}`)), { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const threadSessions = new Map<string, InspectorTarget>();
  const settle = (message: Message) => {
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.error) waiter.reject(new Error(JSON.stringify(message.error)));
    else waiter.resolve(message.result);
  };
  const request = (method: string, params: Record<string, unknown>, deliver: (text: string) => void) => {
    const id = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      deliver(JSON.stringify({ id, method, params }));
    });
  };
  const send = <T>(method: string, params: Record<string, unknown> = {}) =>
    request(method, params, (text) => socket.send(text)) as Promise<T>;

  const listeners = new Map<string, Set<(params: Record<string, unknown>) => void>>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as Message;
    for (const listener of (message.method && listeners.get(message.method)) || []) listener(message.params ?? {});
    if (message.method === 'NodeWorker.attachedToWorker') {
      const sessionId = message.params!.sessionId as string;
      threadSessions.set(sessionId, {
        send: <T>(method: string, params: Record<string, unknown> = {}) =>
          request(
            method,
            params,
            (text) => void send('NodeWorker.sendMessageToWorker', { sessionId, message: text }),
          ) as Promise<T>,
      });
    } else if (message.method === 'NodeWorker.receivedMessageFromWorker') {
      settle(JSON.parse(message.params!.message as string) as Message);
    } else settle(message);
  });

  await send('NodeWorker.enable', { waitForDebuggerOnStart: false });
  // Threads already running are reported right after enable.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const on = (method: string, listener: (params: Record<string, unknown>) => void) => {
    const set = listeners.get(method) ?? new Set();
    listeners.set(method, set.add(listener));
    return () => void set.delete(listener);
  };
  return { send, threads: () => [...threadSessions.values()], on, close: () => socket.close() };
}

/** The inspector address a process started with `--inspect=127.0.0.1:0` printed into its log. */
export async function inspectorUrlFromLog(name: string, logFile: string, exited: () => string | undefined) {
  let url = '';
  await until(
    `${name}'s inspector`,
    async () => {
      url = /Debugger listening on (ws:\/\/\S+)/.exec(readFileSync(logFile, 'utf8'))?.[1] ?? '';
      return url !== '';
    },
    exited,
  );
  return url;
}
