/**
 * A handler's progress and log events as the MCP notifications a listening client receives, or
 * nothing when the client did not ask for them (no progress token; a log below its level). Both
 * eras render them here: the modern leg's SSE response and the handshake-era stream projection.
 */
import type { ExchangeEvent, Listening } from '../exchange/types';
import { passesLogLevel } from './log-levels';

export function toNotification(event: ExchangeEvent, listening: Listening): Record<string, unknown> | undefined {
  if (event.kind === 'close-stream') return undefined;
  if (event.kind === 'progress') {
    if (listening.progressToken === undefined) return undefined;
    const { progress, total, message } = event;
    return {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: {
        progressToken: listening.progressToken,
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message ? { message } : {}),
      },
    };
  }
  if (!passesLogLevel(event.level, listening.logLevel)) return undefined;
  return {
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: event.level, data: event.data, ...(event.logger ? { logger: event.logger } : {}) },
  };
}
