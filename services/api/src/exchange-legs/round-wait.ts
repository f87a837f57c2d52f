/**
 * A leg's wait for a round's outcome: heard on a watch of the outcome waiter (LISTEN/NOTIFY, with
 * a re-read so a missed notification costs latency only), bounded by the HTTP wait budget. When the
 * outcome is not ready in time, the leg is told to come back, but first Temporal is asked whether
 * the workflow still runs: one that was terminated (or otherwise closed) gets its ending recorded,
 * so no client is told to come back forever.
 */
import type { RoundRecord } from '../../../../lib/exchange/types';
import type { Watch } from '../../../../lib/db/outcome-waiter';
import { callerUrlRequests, takesUrlElicitation } from '../../../../lib/questions/caller-url';
import { afterWait, type RoundResult } from '../../../../lib/exchange-rules/leg-rules';
import { asksSomeoneElse } from '../../../../lib/exchange-rules/addressed-leg';
import type { ExchangeLegsDeps, LegOptions } from './leg-types';
import type { ServedAsks } from './served-asks';

/** `served`: where an ask of the caller a wait finds is kept, for the leg that will answer it. */
export function createRoundWait(
  deps: Pick<ExchangeLegsDeps, 'waiter' | 'reconciler' | 'limits' | 'store' | 'callerPages' | 'gateway'>,
  served: Pick<ServedAsks, 'keep'>,
) {
  const { waiter, reconciler, limits, store, callerPages, gateway } = deps;

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
    if (record) {
      served.keep(record);
      return { kind: 'recorded', record };
    }
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
   * The ask of `record` as a client that takes URL-mode elicitations (`capabilities`) is sent it,
   * when its questions include some addressed to the caller and the answer page is on: those
   * questions as URL elicitations pointing at their pages (the others are someone else's).
   */
  function urlAskOf(record: RoundRecord, capabilities: Record<string, unknown> | undefined): RoundResult | undefined {
    if (!callerPages || !capabilities || !takesUrlElicitation(capabilities) || record.outcome.kind !== 'ask')
      return undefined;
    const requests = callerUrlRequests(
      record.exchangeId,
      record.round,
      record.outcome.inputRequests,
      callerPages.pageUrl,
    );
    if (Object.keys(requests).length === 0) return undefined;
    return { kind: 'recorded', record: { ...record, outcome: { ...record.outcome, inputRequests: requests } } };
  }

  /**
   * A round recorded as an ask addressed to someone else gives its caller nothing to answer: the
   * leg waits on for the round after it (answered from the answer page or API) for up to
   * QUESTION_HOLD_MS in all, then is told to come back for that round. An ask with questions for
   * the caller is the leg's answer instead when its client takes them in URL mode (`capabilities`),
   * unless the leg already replied to it (`replied`: it waits past it).
   */
  async function pastQuestions(
    result: RoundResult,
    options: LegOptions,
    capabilities?: Record<string, unknown>,
    replied = false,
  ): Promise<RoundResult> {
    const until = Date.now() + limits.questionHoldMs;
    let current = result;
    let first = true;
    while (current.kind === 'recorded' && asksSomeoneElse(current.record)) {
      const urlAsk = first && replied ? undefined : urlAskOf(current.record, capabilities);
      if (urlAsk) return urlAsk;
      first = false;
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
   * long as a question is held (and is told who the call waits for), else the HTTP wait budget;
   * a round it finds that asks someone else is waited past the same way.
   */
  async function comeBack(
    exchangeId: string,
    round: number,
    options: LegOptions,
    capabilities?: Record<string, unknown>,
  ): Promise<RoundResult> {
    const before = round > 1 ? await store.readRound(exchangeId, round - 1) : undefined;
    if (before && asksSomeoneElse(before))
      return pastQuestions({ kind: 'recorded', record: before }, options, capabilities, true);
    const found = await watching(exchangeId, round, (watch) => awaitRound(watch, exchangeId, round, options, false));
    return pastQuestions(found, options, capabilities);
  }

  /**
   * A leg that joins an exchange another leg of its caller started (`await_answer`, or the same call
   * again): the exchange's last recorded round when that is its ending, or an ask of the caller's
   * client that nobody answered yet (this leg's client may answer it now: the workflow says whether
   * answers to it are in, so none is asked twice); else it comes back for the round after it.
   * (`await_answer` and a repeat reach only their caller's exchanges: the methods check that.)
   */
  async function attach(
    exchangeId: string,
    options: LegOptions,
    capabilities?: Record<string, unknown>,
  ): Promise<RoundResult> {
    const last = await store.lastRound(exchangeId);
    if (last && last.outcome.kind !== 'ask') return { kind: 'recorded', record: last };
    // Sent again only when the workflow says no answers to it are in: one that cannot say now is
    // running a round (a local one holds its queries), which only answers start.
    if (last && !asksSomeoneElse(last) && (await gateway.answerStanding(exchangeId, last.round)) === 'missing')
      return { kind: 'recorded', record: last };
    return comeBack(exchangeId, (last?.round ?? 0) + 1, options, capabilities);
  }

  return { awaitRound, watching, pastQuestions, comeBack, attach };
}

export type RoundWait = ReturnType<typeof createRoundWait>;
