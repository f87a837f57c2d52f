/**
 * What an exchange's workflow says of itself in the Temporal UI: its current details (Markdown,
 * lib/exchange/exchange-details.ts) say which round runs, or what the exchange waits for and since
 * when, or how it ended; its search attributes (`ExchangeRound`, `ExchangeStatus`, `WaitingSince`,
 * `WaitingOn`) make it findable. Current details are no command; the search attributes are upserted
 * once per recorded round, as every exchange's history has it, and `WaitingSince` and `WaitingOn`
 * are cleared when a regular round's answers arrive, which compat.ts gates (`CLEAR_WAIT_ON_ANSWERS`).
 * `WaitingOn` rides in those same upserts, never in one of its own, so it adds no command: a
 * replay compares an upsert's command, not the attributes it carries (compat.ts).
 */
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { endedDetails, runningDetails, waitingDetails, type WaitingView } from '../lib/exchange/exchange-details';
import {
  ANSWERED_BY,
  EXCHANGE_ROUND,
  EXCHANGE_STATUS,
  WAITING_ON,
  WAITING_SINCE,
} from '../lib/exchange/search-attributes';
import { waitingOnOf } from '../lib/exchange/waiting-on';
import type { ExchangeInput, RoundSummary } from '../lib/exchange/types';
import type { CancelledBy } from '../lib/protocol/exchange-errors';
import type { ExchangeState } from '../lib/exchange-rules/exchange-state';

/** What the current details say of a wait, besides the keys answered so far (they change as answers arrive). */
export type Waiting = Omit<WaitingView, 'answeredKeys'>;

export function createVisibility(input: ExchangeInput, state: ExchangeState) {
  let waiting: Waiting | undefined;
  /** The wait of the last ask (its own, for an addressed ask), which an expiry's details name. */
  let waitedMs = input.roundTimeoutMs;
  /** Shows the wait, with the keys answered so far. */
  const showWaiting = () => {
    if (!waiting) return;
    const answered = state.partial?.round === waiting.round ? Object.keys(state.partial.responses) : [];
    const questionAnswers = Object.entries(state.questions?.taken ?? {}).flatMap(([key, taken]) =>
      taken.map(({ answer }) => ({
        key,
        by: answer.by.name ?? answer.by.subject,
        via: answer.via,
        action: answer.response.action,
        at: answer.sentAt,
      })),
    );
    setCurrentDetails(
      waitingDetails({
        ...waiting,
        ...(answered.length ? { answeredKeys: answered } : {}),
        ...(questionAnswers.length ? { questionAnswers } : {}),
      }),
    );
  };
  const answeredBy = new Set<string>();

  return {
    /** Round `round` runs. */
    running(round: number): void {
      setCurrentDetails(runningDetails(input.request, round, Date.now()));
    },

    /** The exchange waits for the answers to an ask. */
    waitFor(view: Waiting): void {
      waiting = view;
      waitedMs = view.roundTimeoutMs;
      showWaiting();
    },

    /** The wait ended (answered, expired, cancelled). */
    stopWaiting(): void {
      waiting = undefined;
    },

    /** One key's answer arrived: the wait shows it. */
    showWaiting,

    /** A question took an answer: the wait shows who gave it, and `AnsweredBy` lists them. */
    questionAnswered(principalId: string): void {
      showWaiting();
      if (answeredBy.has(principalId)) return;
      answeredBy.add(principalId);
      upsertSearchAttributes([{ key: ANSWERED_BY, value: [...answeredBy] }]);
    },

    /** A regular round's handler may run for minutes: the exchange no longer waits on anyone. */
    clearWaitingSince(): void {
      upsertSearchAttributes([
        { key: WAITING_SINCE, value: null },
        { key: WAITING_ON, value: null },
      ]);
    },

    /**
     * Tells Temporal where the exchange stands after round `round`: its search attributes (one
     * upsert, as every exchange's history has it here; `WaitingSince` and `WaitingOn` set while an
     * ask waits, removed otherwise) and, once it has ended, current details that say how.
     */
    publish(round: number, summary: RoundSummary, waitingSince?: number, cancelled?: CancelledBy): void {
      const waits = waitingSince !== undefined && summary.kind === 'ask';
      upsertSearchAttributes([
        { key: EXCHANGE_ROUND, value: round },
        { key: EXCHANGE_STATUS, value: state.status },
        { key: WAITING_SINCE, value: waits ? new Date(waitingSince) : null },
        { key: WAITING_ON, value: waits ? waitingOnOf(summary.askKeys ?? [], summary.questions) : null },
      ]);
      if (summary.kind === 'ask') return;
      setCurrentDetails(
        endedDetails({
          request: input.request,
          status: state.status,
          round,
          asks: state.asks,
          maxRounds: input.maxRounds,
          roundTimeoutMs: waitedMs,
          ...(summary.errorCode !== undefined ? { errorCode: summary.errorCode } : {}),
          ...(cancelled ? { cancelledBy: cancelled } : {}),
          at: Date.now(),
        }),
      );
    },
  };
}
