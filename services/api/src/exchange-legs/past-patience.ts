/**
 * A call whose wait outlasts its client's retry loop: at the result its client would no longer
 * take (lib/exchange-rules/client-patience.ts), the leg's input-required result (an ask, or a
 * state-only "come back") becomes a complete one. By the tool's choice (`longWait`):
 *
 * - `'pending-result'`: the call stays as it is, and its client is told what it waits on and how to
 *   get its outcome (`await_answer` with the handle; lib/questions/pending-result.ts);
 * - `'error'`: the exchange is cancelled, so nothing the answer would have done happens unseen, and
 *   the call gets an error, unless the answer made it first (then its result).
 */
import { outlastsPatience, type LegCount } from '../../../../lib/exchange-rules/client-patience';
import { pendingOn } from '../../../../lib/questions/pending-result';
import type { ExchangeLeg, ExchangeLegsDeps, LegOptions, LegOutcome, SentOutcome } from './leg-types';
import type { RoundWait } from './round-wait';

/** Why the exchange is cancelled, as its record and the Temporal UI say. */
const WITHDRAWN = "the caller's client stopped waiting before the answer came";

export function createPastPatience(deps: Pick<ExchangeLegsDeps, 'store' | 'gateway'>, wait: RoundWait) {
  /** The exchange and the round a not-yet-complete outcome waits on, or undefined when it is complete. */
  function waitingOf(outcome: LegOutcome): { exchangeId: string; round: number; stateOnly: boolean } | undefined {
    if (outcome.kind === 'pending') return { exchangeId: outcome.exchangeId, round: outcome.round, stateOnly: true };
    if (outcome.kind === 'recorded' && outcome.record.outcome.kind === 'ask')
      return { exchangeId: outcome.record.exchangeId, round: outcome.record.round + 1, stateOnly: false };
    return undefined;
  }

  /** `outcome` as this leg's client is sent it, `count` being its loop's count before it. */
  return async function pastPatience(
    leg: ExchangeLeg,
    outcome: LegOutcome,
    count: LegCount,
    options: LegOptions,
  ): Promise<SentOutcome> {
    const waiting = waitingOf(outcome);
    if (!leg.patience || !waiting || !outlastsPatience(count, waiting.stateOnly, leg.patience.patience)) return outcome;
    const { exchangeId, round } = waiting;
    const { tool, repeatReattaches, longWait } = leg.patience;
    // Read before any cancel: what the call was waiting on, not how it ended.
    const on = pendingOn(await deps.store.lastRound(exchangeId));
    const outlasted = (withdrawn: boolean): SentOutcome => ({
      kind: 'outlasted',
      exchangeId,
      on,
      withdrawn,
      tool,
      repeatReattaches,
    });
    if (longWait === 'pending-result') return outlasted(false);
    await deps.gateway.cancel(exchangeId, WITHDRAWN, 'client');
    // The answer may have landed before the cancel: then the call has its result after all.
    const ended = await wait.comeBack(exchangeId, round, { ...(options.signal ? { signal: options.signal } : {}) });
    if (ended.kind === 'recorded' && ended.record.outcome.kind === 'complete') return ended;
    return outlasted(true);
  };
}
