/**
 * The news that a list a process serves changed (the gateway listed other tools, prompts or
 * resources from an upstream), fanned out in the process to every open stream that tells its
 * client (`notifications/tools/list_changed`, `notifications/prompts/list_changed`,
 * `notifications/resources/list_changed`): a handshake-era session's standing stream, a 2026-07-28
 * `subscriptions/listen`. In memory on purpose: each process lists its upstreams itself, so each
 * tells the clients whose streams it holds. A listener that throws does not keep it from the others.
 */

/** The lists that can change: each has its own notification. */
export type ListKind = 'tools' | 'prompts' | 'resources';

export interface ListChanges {
  /** Calls `listener` on each change from now on, with the list that changed; call the result to stop. */
  subscribe(listener: (kind: ListKind) => void): () => void;
}

export interface ListAnnouncer extends ListChanges {
  announce(kind?: ListKind): void;
}

/** The notification each era's stream carries of a list's change (a 2026-07-28 stream adds its subscription id). */
export const listChanged = (kind: ListKind) =>
  ({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` }) as const;

export function createListChanges(onListenerError?: (error: unknown) => void): ListAnnouncer {
  const listeners = new Set<(kind: ListKind) => void>();
  return {
    subscribe(listener) {
      // Wrapped, so one function subscribed twice is two subscriptions.
      const entry = (kind: ListKind) => listener(kind);
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
    announce(kind = 'tools') {
      for (const listener of [...listeners]) {
        try {
          listener(kind);
        } catch (error) {
          onListenerError?.(error);
        }
      }
    },
  };
}
