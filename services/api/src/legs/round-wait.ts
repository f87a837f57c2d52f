/**
 * A leg's wait for a round's outcome: heard on a watch of the outcome waiter (LISTEN/NOTIFY, with
 * a re-read so a missed notification costs latency only), bounded by the HTTP wait budget. When the
 * outcome is not ready in time, the leg is told to come back, but first Temporal is asked whether
 * the workflow still runs: one that was terminated (or otherwise closed) gets its ending recorded,
 * so no client is told to come back forever.
 */
import type { RoundRecord } from '../../../../lib/db/exchange-store';
import type { Watch } from '../../../../lib/db/outcome-waiter';
import { afterWait, type RoundResult } from './leg-decisions';
import type { ExchangeLegsDeps, LegOptions } from './leg-types';

export function createRoundWait(deps: Pick<ExchangeLegsDeps, 'waiter' | 'reconciler' | 'limits'>) {
  const { waiter, reconciler, limits } = deps;

  /**
   * The round's outcome as `watch` hears or finds it (`absent`: nothing was there when the watch
   * began, see WaitOptions), or "come back".
   */
  async function awaitRound(
    watch: Watch<RoundRecord>,
    exchangeId: string,
    round: number,
    options: LegOptions,
    absent: boolean,
  ): Promise<RoundResult> {
    options.onRound?.(exchangeId, round);
    const record = await watch.wait(limits.httpWaitMs, { signal: options.signal, absent });
    if (record) return { kind: 'recorded', record };
    return afterWait(exchangeId, round, options.signal?.aborted ? undefined : await reconciler.reconcile(exchangeId));
  }

  /** Waits on a watch it begins now, closed however `work` ends. */
  async function watching<T>(
    exchangeId: string,
    round: number,
    work: (watch: Watch<RoundRecord>) => Promise<T>,
  ): Promise<T> {
    const watch = waiter.watchRound(exchangeId, round);
    try {
      return await work(watch);
    } finally {
      watch.close();
    }
  }

  return { awaitRound, watching };
}

export type RoundWait = ReturnType<typeof createRoundWait>;
