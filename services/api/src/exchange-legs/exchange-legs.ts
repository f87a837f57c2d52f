/**
 * Maps the legs of a multi-round-trip call onto its durable exchange: the entry the API's methods
 * call, which wires the jobs of the other files of this folder.
 *
 * - A first leg (no requestState) starts a workflow (start-leg.ts) and waits for round 1.
 * - A retry carrying `inputResponses` and an `ask` requestState answers that round (answer-leg.ts):
 *   the answers are signalled once and the API waits for the next round.
 * - When an outcome is not ready within the HTTP wait budget (round-wait.ts), the client gets a
 *   state-only `InputRequiredResult` (a `wait` requestState) and comes back for it, instead of the
 *   API holding the connection for the whole round.
 * - A call that runs as a task (the Tasks extension, SEP-2663) is answered with its task instead of
 *   a round's outcome: a first leg whose task begins at the call starts the exchange in task mode;
 *   a retry whose answers begin it signals them with the task mode (task ids and TTL: tasks/task-ids.ts).
 *
 * Every requestState is verified first (request-state-check.ts); the capacity budgets are
 * capacity.ts's, and the quotas of calls, which only a first leg that starts an exchange counts
 * against, quotas.ts's. A call whose wait outlasts its client's retry loop gets a complete result at the
 * last leg that loop takes (past-patience.ts), and `await_answer` joins it again (`attachTo`). What each leg is and gets is decided by the pure functions of lib/exchange-rules/leg-rules.ts.
 */
import { randomUUID } from 'node:crypto';
import type { RoundRecord } from '../../../../lib/exchange/types';
import type { TaskRecord } from '../../../../lib/db/task-store';
import { linkToExchangeTrace } from '../../../../lib/tracing/exchange-trace';
import { tagLegExchange } from '../../../../lib/tracing/leg-span';
import { inStepSpan, STEP_SPANS } from '../../../../lib/tracing/step-span';
import { logExchange } from '../../../../lib/log';
import { fromOutcome, invalidRequestState, repeatedCallGone } from '../../../../lib/protocol/error-catalog';
import type { RpcError } from '../../../../lib/protocol/rpc-error';
import { createTaskRows } from '../tasks/task-ids';
import { createAnswerLeg } from './answer-leg';
import { createInflightGate } from './capacity';
import { awaitedWith, classifyLeg, requestDigestOf } from '../../../../lib/exchange-rules/leg-rules';
import type { ExchangeLeg, ExchangeLegsDeps, LegBinding, LegOptions, LegOutcome, LegResult } from './leg-types';
import { createRequestStateCheck } from './request-state-check';
import { createServedAsks } from './served-asks';
import { createRoundWait } from './round-wait';
import { createStart } from './start-leg';
import { createPastPatience, sentStateOnly } from './past-patience';
import type { RequestStateClaims } from '../../../../lib/state/request-state';
import { countedWith, FIRST_LEG, type LegCount } from '../../../../lib/exchange-rules/client-patience';

export type {
  ExchangeLeg,
  ExchangeLegsDeps,
  LegBinding,
  LegLimits,
  LegOptions,
  LegResult,
  LongWait,
} from './leg-types';

export function createExchangeLegs(deps: ExchangeLegsDeps) {
  const { store } = deps;
  const taskFor = createTaskRows(deps.tasks, deps.limits);
  const start = createStart(deps, taskFor);
  const servedAsks = createServedAsks(deps.limits.servedAsksMaxBytes);
  const wait = createRoundWait(deps, servedAsks);
  const { answerLeg, redeliverAnswers } = createAnswerLeg(deps, taskFor, wait, servedAsks);
  const verified = createRequestStateCheck(deps.requestState, deps.log);
  const inflight = createInflightGate(deps.limits);
  const pastPatience = createPastPatience(deps, wait);

  /**
   * A first leg starts the exchange (or joins the one it names: `attachTo`); a retry answers its
   * ask (or comes back for its outcome). `claims`: its verified requestState.
   */
  async function runLeg(
    leg: ExchangeLeg,
    claims: RequestStateClaims | undefined,
    options: LegOptions,
    joined: () => void,
  ): Promise<LegOutcome> {
    const kind = classifyLeg(claims);
    if (claims) {
      logExchange(claims.exchangeId);
      tagLegExchange(claims.exchangeId, claims.round + 1);
      await linkToExchangeTrace(() =>
        inStepSpan(STEP_SPANS.readExchangeTrace, () => store.readTraceContext(claims.exchangeId)),
      );
    }
    switch (kind.kind) {
      case 'first': {
        if (leg.attachTo !== undefined) {
          joined();
          logExchange(leg.attachTo);
          return wait.attach(leg.attachTo, options, leg.clientCapabilities);
        }
        // A task is answered with itself at once: nothing waits for its rounds.
        if (leg.taskBegins === 'at-call') return { kind: 'task', task: (await start(leg, randomUUID(), true)).task! };
        // Watched before the workflow exists, so nothing can record round 1 before the watch hears it.
        const exchangeId = randomUUID();
        const first = await wait.watching(exchangeId, 1, async (watch) => {
          const { joins } = await start(leg, exchangeId);
          // A repeat of a call still running: it waits with that call, which asks nobody again.
          if (joins !== undefined) return { joins };
          return wait.awaitRound(watch, exchangeId, 1, options, true);
        });
        if ('joins' in first) {
          joined();
          logExchange(first.joins);
          return wait.attach(first.joins, options, leg.clientCapabilities);
        }
        return wait.pastQuestions(first, options, leg.clientCapabilities);
      }
      case 'answer': {
        const { exchangeId, round } = kind.claims;
        const answered = await wait.watching(exchangeId, round + 1, (watch) =>
          answerLeg(leg, kind.claims, options, watch),
        );
        // Answers that lead to an ask addressed to someone else: the leg waits on past it (and past
        // the ask itself, when they were replies to its URL elicitations: url-replies.ts).
        if (answered.kind === 'task') return answered;
        const replied = answered.kind === 'recorded' && answered.record.round === round;
        return wait.pastQuestions(answered, options, leg.clientCapabilities, replied);
      }
      case 'come-back': {
        const { exchangeId, round, afterEvent, answersDigest } = kind.claims;
        options.onRound?.(exchangeId, round, afterEvent);
        const result = await wait.comeBack(
          exchangeId,
          round,
          { ...options, onRound: undefined },
          leg.clientCapabilities,
        );
        // Still nothing after a whole wait: the answers this client sent may never have reached the
        // round (the workflow says), and this leg carries them again.
        if (result.kind === 'pending' && answersDigest !== undefined && !options.signal?.aborted)
          await redeliverAnswers(leg, exchangeId, round - 1, answersDigest);
        return awaitedWith(result, answersDigest);
      }
    }
  }

  return {
    /**
     * Starts the exchange of a first leg that answers elsewhere (a legacy call's stream); a leg that
     * may join (`joins`) gets the running exchange it joined instead, and nothing is started.
     */
    start: async (leg: ExchangeLeg, exchangeId: string = randomUUID()): Promise<{ joins?: string }> => {
      const { joins } = await start(leg, exchangeId);
      return joins !== undefined ? { joins } : {};
    },

    /**
     * Starts the exchange of a legacy call that runs as a task (2025-11-25 `params.task`),
     * its task row written before the workflow starts; `requestedTtlMs` may shorten its TTL.
     */
    startTask: async (leg: ExchangeLeg, exchangeId: string, requestedTtlMs?: number): Promise<TaskRecord> =>
      (await start(leg, exchangeId, true, requestedTtlMs)).task!,

    /** Runs one leg; at most `maxInflightLegs` wait in this process at once (`maxInflightLegsPerPrincipal` of one caller). */
    run: (leg: ExchangeLeg, options: LegOptions = {}): Promise<LegResult> =>
      inflight(leg.principal, async () => {
        // Digested once: the requestState is verified against it, and the requestState minted for
        // this leg's answer is bound to it.
        const binding: LegBinding = { requestDigest: requestDigestOf(leg.request), principal: leg.principal.id };
        const { requestState } = leg;
        const claims =
          requestState === undefined
            ? undefined
            : inStepSpan(STEP_SPANS.verifyRequestState, () => verified(leg, requestState, binding.requestDigest));
        // What its client's loop was sent before this leg, and so what it still takes.
        let count: LegCount = claims
          ? { legs: claims.legs ?? 0, waits: claims.waits ?? 0, ...(claims.joined ? { joined: true } : {}) }
          : FIRST_LEG;
        const ran = await runLeg(leg, claims, options, () => (count = { ...count, joined: true }));
        // Nothing to come back to: the exchange's row is gone (a repeat joined a call whose start
        // then failed, or retention removed it), so no later leg would find anything either. Only a
        // leg that did not start the exchange can find it so, and only one still heard is told.
        const reached = claims !== undefined || count.joined === true;
        if (reached && ran.kind === 'pending' && !options.signal?.aborted && !(await store.readCall(ran.exchangeId)))
          throw claims ? invalidRequestState() : repeatedCallGone();
        const outcome = await pastPatience(leg, ran, count, options);
        return { ...outcome, binding, count: countedWith(count, sentStateOnly(outcome)) };
      }),
  };
}

export type ExchangeLegs = ReturnType<typeof createExchangeLegs>;

/** Ends the leg with the exchange's error, if its outcome is one. */
export function errorOf(record: RoundRecord): RpcError | undefined {
  return record.outcome.kind === 'error' ? fromOutcome(record.outcome.error) : undefined;
}
