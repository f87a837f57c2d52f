/**
 * A Chrome DevTools Protocol session on a Node process's inspector (`--inspect`), reaching its
 * worker threads too: the Temporal worker runs workflows in a thread of its own, so a round's
 * workflow code is only seen there. Uses Node's own WebSocket; one request at a time per target.
 */
type Message = { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

export interface InspectorTarget {
  /** Sends one protocol command and resolves with its result. */
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
}

export interface InspectorSession extends InspectorTarget {
  /** The process's worker threads, as targets (attached on `connect`). */
  threads(): InspectorTarget[];
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

  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as Message;
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
  return { send, threads: () => [...threadSessions.values()], close: () => socket.close() };
}
