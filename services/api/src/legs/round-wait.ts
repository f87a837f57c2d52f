/**
 * A leg's wait for a round's outcome: heard on a watch of the outcome waiter (LISTEN/NOTIFY, with
 * a re-read so a missed notification costs latency only), bounded by the HTTP wait budget. When the
 * outcome is not ready in time, the leg is told to come back, but first Temporal is asked whether
 * the workflow still runs: one that was terminated (or otherwise closed) gets its ending recorded,
 * so no client is told to come back forever.
 */
import type { RoundRecord } from '../../../../lib/db/exchange-store';
import type { Watch } from '../../../../lib/db/outcome-waiter';
import { isAddressedAsk } from '../../../../lib/questions/addressing';
import { afterWait, type RoundResult } from './leg-decisions';
import type { ExchangeLegsDeps, LegOptions } from './leg-types';

/** Whether a round's record is an ask addressed to someone else: its caller has nothing to answer. */
export const asksSomeoneElse = (record: RoundRecord): boolean =>
  record.outcome.kind === 'ask' && isAddressedAsk(record.outcome.inputRequests);

export function createRoundWait(deps: Pick<ExchangeLegsDeps, 'waiter' | 'reconciler' | 'limits' | 'store'>) {
  const { waiter, reconciler, limits, store } = deps;

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
    waitMs: number = limits.httpWaitMs,
  ): Promise<RoundResult> {
    options.onRound?.(exchangeId, round);
    const record = await watch.wait(waitMs, { signal: options.signal, absent });
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

  /**
   * A round recorded as an ask addressed to someone else gives its caller nothing to answer: the
   * leg waits on for the round after it (answered from the answer page or API) for up to
   * QUESTION_HOLD_MS in all, then is told to come back for that round.
   */
  async function pastQuestions(result: RoundResult, options: LegOptions, holdMs = limits.questionHoldMs) {
    const until = Date.now() + holdMs;
    let current = result;
    while (current.kind === 'recorded' && asksSomeoneElse(current.record)) {
      const { exchangeId, round } = current.record;
      options.onQuestions?.(current.record);
      const remaining = until - Date.now();
      if (remaining <= 0 || options.signal?.aborted) return { kind: 'pending' as const, exchangeId, round: round + 1 };
      current = await watching(exchangeId, round + 1, (watch) =>
        awaitRound(watch, exchangeId, round + 1, options, false, remaining),
      );
    }
    return current;
  }

  /**
   * A leg that comes back for `round`: when the round before it asked someone else, it waits as
   * long as a question is held (and is told who the call waits for), else the HTTP wait budget.
   */
  async function comeBack(exchangeId: string, round: number, options: LegOptions): Promise<RoundResult> {
    const before = round > 1 ? await store.readRound(exchangeId, round - 1) : undefined;
    if (before && asksSomeoneElse(before)) return pastQuestions({ kind: 'recorded', record: before }, options);
    return watching(exchangeId, round, (watch) => awaitRound(watch, exchangeId, round, options, false));
  }

  return { awaitRound, watching, pastQuestions, comeBack };
}

export type RoundWait = ReturnType<typeof createRoundWait>;
