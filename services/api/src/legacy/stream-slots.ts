/**
 * The SSE streams this API process holds open, counted against two budgets: streams per process
 * (each is a socket and a Postgres listener's waiters) and streams per session (one client must not
 * take them all).
 */
import { apiMetrics } from '../../../../lib/metrics/api-metrics';
import { createHeldSlots, type HeldSlots } from '../http/held-slots';

export interface StreamSlotLimits {
  maxOpenStreams: number;
  maxStreamsPerSession: number;
  capacityRetryAfterS: number;
}

/** `take(sessionId)` takes a slot for one of the session's streams (HeldSlots). */
export type StreamSlots = HeldSlots;

export const createStreamSlots = (limits: StreamSlotLimits): StreamSlots =>
  createHeldSlots({
    total: limits.maxOpenStreams,
    totalWhat: 'open streams on this server',
    perOwner: limits.maxStreamsPerSession,
    perOwnerWhat: 'open streams of this session',
    capacityRetryAfterS: limits.capacityRetryAfterS,
    onTake: () => apiMetrics.legacyStreamOpened(),
    onRelease: () => apiMetrics.legacyStreamClosed(),
  });
