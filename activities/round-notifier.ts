/**
 * The handler's `ctx.progress` and `ctx.sendLog` during one round: each notification is stored
 * for the round (and announced), but only when the leg that started the round listens for it, so
 * a handler that reports progress costs nothing when no client asked for it.
 */
import type { LoggingLevel } from '@modelcontextprotocol/server';
import type { ExchangeStore } from '../lib/db/exchange-store';
import type { ExchangeInput, Listening } from '../lib/exchange/types';

const SEVERITY: Record<string, number> = {
  debug: 0, info: 1, notice: 2, warning: 3, error: 4, critical: 5, alert: 6, emergency: 7,
};

/** Whether a message at `level` passes a client's minimum level (RFC 5424 order). */
export function passesLogLevel(level: string, minimum: string | undefined): boolean {
  if (minimum === undefined) return false;
  return (SEVERITY[level] ?? 0) >= (SEVERITY[minimum] ?? 0);
}

export function createRoundNotifier(store: ExchangeStore, exchange: ExchangeInput, workflowId: string, round: number, listening: Listening) {
  return {
    async progress(progress: number, total?: number, message?: string): Promise<void> {
      if (listening.progressToken === undefined) return;
      await store.appendEvent(exchange, workflowId, round, { kind: 'progress', progress, total, message });
    },
    async sendLog(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
      if (!passesLogLevel(level, listening.logLevel)) return;
      await store.appendEvent(exchange, workflowId, round, { kind: 'log', level, data, logger });
    },
  };
}
