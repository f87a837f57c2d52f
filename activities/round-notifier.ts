/**
 * The handler's `ctx.progress` and `ctx.sendLog` during one round: each notification is stored
 * for the round (and announced), but only when the leg that started the round listens for it, so
 * a handler that reports progress costs nothing when no client asked for it.
 */
import type { LoggingLevel } from '@modelcontextprotocol/server';
import type { ExchangeStore } from '../lib/db/exchange-store';
import type { ExchangeInput, Listening } from '../lib/exchange/types';
import { passesLogLevel } from '../lib/protocol/log-levels';

export function createRoundNotifier(
  store: ExchangeStore,
  exchange: ExchangeInput,
  workflowId: string,
  round: number,
  listening: Listening,
) {
  return {
    async progress(progress: number, total?: number, message?: string): Promise<void> {
      if (listening.progressToken === undefined) return;
      await store.appendEvent(exchange, workflowId, round, { kind: 'progress', progress, total, message });
    },
    async sendLog(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
      if (!passesLogLevel(level, listening.logLevel)) return;
      await store.appendEvent(exchange, workflowId, round, { kind: 'log', level, data, logger });
    },
    async closeStream(): Promise<void> {
      await store.appendEvent(exchange, workflowId, round, { kind: 'close-stream' });
    },
  };
}
