/**
 * The news that the tools a process serves changed (the gateway listed other tools from an
 * upstream), fanned out in the process to every open stream that tells its client
 * (`notifications/tools/list_changed`): a handshake-era session's standing stream, a 2026-07-28
 * `subscriptions/listen`. In memory on purpose: each process lists its upstreams itself, so each
 * tells the clients whose streams it holds. A listener that throws does not keep it from the others.
 */
export interface ToolListChanges {
  /** Calls `listener` on each change from now on; call the result to stop. */
  subscribe(listener: () => void): () => void;
}

export interface ToolListAnnouncer extends ToolListChanges {
  announce(): void;
}

/** The notification each era's stream carries (a 2026-07-28 stream adds its subscription id). */
export const TOOL_LIST_CHANGED = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' } as const;

export function createToolListChanges(onListenerError?: (error: unknown) => void): ToolListAnnouncer {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      // Wrapped, so one function subscribed twice is two subscriptions.
      const entry = () => listener();
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
    announce() {
      for (const listener of [...listeners]) {
        try {
          listener();
        } catch (error) {
          onListenerError?.(error);
        }
      }
    },
  };
}
