/**
 * Finds exchanges that Postgres still calls running although nothing happened to them for longer
 * than any round can last, and reconciles each with Temporal. A workflow terminated (or removed by
 * namespace retention) while no client was coming back would otherwise stay "running" here for
 * ever: counted against MAX_RUNNING_EXCHANGES and never swept. A workflow that still runs (its
 * workers are down, say) is left alone. Every replica may sweep; reconciling twice records nothing twice.
 */
import type { ExchangeStore } from '../db/exchange-store';
import type { Logger } from '../log';
import type { ExchangeReconciler } from './exchange-reconciler';
import { postgresErrorFields } from '../db/connection-loss';

export interface IdleSweepOptions {
  /** Longer than a round can last: the round timeout plus the handler timeout, with a margin. */
  idleMs: number;
  everyMs: number;
  batch?: number;
}

export function startIdleExchangeSweeper(
  deps: { store: ExchangeStore; reconciler: ExchangeReconciler; log: Logger },
  options: IdleSweepOptions,
) {
  const { store, reconciler, log } = deps;
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      let ended = 0;
      for (const exchangeId of await store.idleRunning(options.idleMs, options.batch ?? 100)) {
        if (await reconciler.reconcile(exchangeId)) ended += 1;
      }
      if (ended) log.info({ ended }, 'idle exchanges whose workflows had closed were ended');
    } catch (error) {
      log.warn(postgresErrorFields(error), 'idle exchange sweep failed; will try again');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), options.everyMs);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
