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
import { EXCHANGE_CANCELLED } from '../../../../lib/protocol/exchange-errors';
import type { ExchangeLeg, ExchangeLegsDeps, LegOptions, LegOutcome, SentOutcome } from './leg-types';
import type { RoundWait } from './round-wait';
import { createWaitingOn } from './waiting-on';

/** Why the exchange is cancelled, as its record and the Temporal UI say. */
const WITHDRAWN = "the caller's client stopped waiting before the answer came";
/**
 * How long a withdrawing leg waits for the cancel's ending: it was held a whole hold already, so
 * only a few seconds are left under the client's 60 s request timeout.
 */
const WITHDRAW_WAIT_MS = 5_000;

/** Whether `outcome`, sent to a 2026-07-28 client, is a result with nothing to answer (a state-only one, or an empty ask). */
export function sentStateOnly(outcome: LegOutcome | SentOutcome): boolean {
  if (outcome.kind === 'pending') return true;
  return (
    outcome.kind === 'recorded' &&
    outcome.record.outcome.kind === 'ask' &&
    Object.keys(outcome.record.outcome.inputRequests).length === 0
  );
}

export function createPastPatience(deps: Pick<ExchangeLegsDeps, 'store' | 'gateway'>, wait: RoundWait) {
  /** The exchange and the round a not-yet-complete outcome waits on, or undefined when it is complete. */
  function waitingOf(outcome: LegOutcome): { exchangeId: string; round: number } | undefined {
    if (outcome.kind === 'pending') return { exchangeId: outcome.exchangeId, round: outcome.round };
    if (outcome.kind === 'recorded' && outcome.record.outcome.kind === 'ask')
      return { exchangeId: outcome.record.exchangeId, round: outcome.record.round + 1 };
    return undefined;
  }

  const waitingOn = createWaitingOn(deps);

  /** `outcome` as this leg's client is sent it, `count` being its loop's count before it. */
  return async function pastPatience(
    leg: ExchangeLeg,
    outcome: LegOutcome,
    count: LegCount,
    options: LegOptions,
  ): Promise<SentOutcome> {
    const waiting = waitingOf(outcome);
    // A leg its client left is sent nothing: it reads nothing more either.
    if (options.signal?.aborted) return outcome;
    if (!leg.patience || !waiting || !outlastsPatience(count, sentStateOnly(outcome), leg.patience.patience))
      return outcome;
    const { exchangeId, round } = waiting;
    const { tool, repeatReattaches, longWait } = leg.patience;
    const on = await waitingOn(exchangeId);
    const outlasted = (withdrawn: boolean): SentOutcome => ({
      kind: 'outlasted',
      exchangeId,
      on,
      withdrawn,
      tool,
      repeatReattaches,
    });
    // A call whose handler already has its answers is not withdrawn: what it does with them is done.
    // Nor is one this loop joined: the loop that started it decides for it.
    if (longWait === 'pending-result' || on.working || count.joined) return outlasted(false);
    await deps.gateway.cancel(exchangeId, WITHDRAWN, 'client');
    // Withdrawn only once the cancel's ending is read; an answer that landed first gives the result.
    const ended = await wait.watching(exchangeId, round, (watch) =>
      wait.awaitRound(
        watch,
        exchangeId,
        round,
        options.signal ? { signal: options.signal } : {},
        false,
        WITHDRAW_WAIT_MS,
      ),
    );
    if (ended.kind !== 'recorded' || ended.record.outcome.kind === 'ask') return outlasted(false);
    const { outcome: ending } = ended.record;
    return ending.kind === 'error' && ending.error.code === EXCHANGE_CANCELLED ? outlasted(true) : ended;
  };
}
