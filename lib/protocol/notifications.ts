/**
 * A handler's progress and log events as the MCP notifications a listening client receives. Both
 * eras render them here: the modern leg's SSE response and the legacy stream projection.
 * Which events a client gets is decided once, when the worker stores them (activities/
 * round-notifier.ts: progress only for a leg with a progress token, logs at or above the leg's
 * level); rendering only puts the delivering request's progress token on progress.
 */
import type { ExchangeEvent, Listening } from '../exchange/types';

export function toNotification(
  event: ExchangeEvent,
  progressToken: Listening['progressToken'],
): Record<string, unknown> | undefined {
  if (event.kind === 'close-stream') return undefined;
  if (event.kind === 'progress') {
    // Stored only for a leg that listens; a request that carries no token of its own cannot show it.
    if (progressToken === undefined) return undefined;
    const { progress, total, message } = event;
    return {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: {
        progressToken,
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message ? { message } : {}),
      },
    };
  }
  return {
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: event.level, data: event.data, ...(event.logger ? { logger: event.logger } : {}) },
  };
}
