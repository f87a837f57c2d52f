/**
 * The SSE streams this API process holds open, counted against two budgets: streams per process
 * (each is a socket and a Postgres listener's waiters) and streams per session (one client must not
 * take them all). In memory on purpose: a stream lives exactly as long as this process's socket.
 */
import { apiMetrics } from '../../../../lib/metrics/api-metrics';
import { capacityExceeded } from '../../../../lib/protocol/error-catalog';

export interface StreamSlotLimits {
  maxOpenStreams: number;
  maxStreamsPerSession: number;
  capacityRetryAfterS: number;
}

export interface StreamSlots {
  /** Takes a slot for one of the session's streams, or throws -32000 (HTTP 429); call the result once it closes. */
  take(sessionId: string): () => void;
  readonly open: number;
}

export function createStreamSlots(limits: StreamSlotLimits): StreamSlots {
  const { maxOpenStreams, maxStreamsPerSession, capacityRetryAfterS } = limits;
  const perSession = new Map<string, number>();
  let open = 0;
  return {
    take(sessionId) {
      if (open >= maxOpenStreams)
        throw capacityExceeded('open streams on this server', maxOpenStreams, capacityRetryAfterS);
      const held = perSession.get(sessionId) ?? 0;
      if (held >= maxStreamsPerSession)
        throw capacityExceeded('open streams of this session', maxStreamsPerSession, capacityRetryAfterS);
      open += 1;
      apiMetrics.legacyStreamOpened();
      perSession.set(sessionId, held + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        open -= 1;
        apiMetrics.legacyStreamClosed();
        const left = (perSession.get(sessionId) ?? 1) - 1;
        if (left > 0) perSession.set(sessionId, left);
        else perSession.delete(sessionId);
      };
    },
    get open() {
      return open;
    },
  };
}
