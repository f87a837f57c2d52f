/**
 * Starts an exchange from its first leg: bounds its target and round input, takes the call from its
 * quotas (quotas.ts), writes its row (under the capacity budgets), for a task its task row, then
 * starts its workflow; the first round runs as soon as a worker takes it. If Temporal refuses or
 * cannot be reached, the row is forgotten and the call given back to its quotas, so no half-started
 * exchange stays behind.
 */
import { randomUUID } from 'node:crypto';
import type { TaskRecord } from '../../../../lib/db/task-store';
import { callerUnmatchedOf, detailsOf, personIdOf } from '../../../../lib/exchange/principal';
import { roundInputTooLarge } from '../../../../lib/exchange-rules/round-input-size';
import type { ExchangeInput } from '../../../../lib/exchange/types';
import { exchangeLogger, logExchange } from '../../../../lib/log';
import { activeTraceContext } from '../../../../lib/tracing/exchange-trace';
import { tagLegExchange } from '../../../../lib/tracing/leg-span';
import { workflowIdFor } from '../../../../lib/exchange-client/workflow-messages';
import { taskModeOf, type TaskRows } from '../tasks/task-ids';
import { principalBudget, refuseFullRoom } from './capacity';
import { requestDigestOf, targetTooLong } from '../../../../lib/exchange-rules/leg-rules';
import { invalidParams } from '../../../../lib/protocol/error-catalog';
import type { ExchangeLeg, ExchangeLegsDeps } from './leg-types';

/** Refuses a round whose input (this leg's arguments and capabilities, and `answers`) is over the budget. */
export function checkRoundInput(leg: ExchangeLeg, answers: unknown, limit: number): void {
  const refusal = roundInputTooLarge(
    { params: leg.request.params, answers, clientCapabilities: leg.clientCapabilities },
    limit,
  );
  if (refusal) throw refusal;
}

export function createStart(deps: ExchangeLegsDeps, taskFor: TaskRows) {
  const { gateway, store, limits, log } = deps;

  /**
   * Starts the exchange's workflow. As a task (`asTask`), its task row is written between the
   * exchange's row and the workflow; `requestedTtlMs` may shorten its TTL.
   */
  return async function start(
    leg: ExchangeLeg,
    exchangeId: string = randomUUID(),
    asTask = false,
    requestedTtlMs?: number,
  ): Promise<Started> {
    const { request } = leg;
    logExchange(exchangeId);
    tagLegExchange(exchangeId, 1);
    const tooLong = targetTooLong(request.method, request.target, limits.maxTargetLength);
    if (tooLong) throw tooLong;
    checkRoundInput(leg, leg.inputResponses, limits.maxRoundInputBytes);
    const input: ExchangeInput = {
      exchangeId,
      era: leg.era,
      request,
      principal: leg.principal.id,
      principalDetails: detailsOf(leg.principal),
      callerPersonId: personIdOf(leg.principal),
      ...(callerUnmatchedOf(leg.principal) !== undefined ? { callerUnmatched: callerUnmatchedOf(leg.principal) } : {}),
      ...(deps.callerPages ? { answerPageOrigin: deps.callerPages.origin } : {}),
      clientCapabilities: leg.clientCapabilities,
      ...(leg.listening ? { listening: leg.listening } : {}),
      // Answers sent before any ask are carried to round 1: the handler reads what it knows.
      ...(leg.inputResponses ? { initialResponses: leg.inputResponses } : {}),
      roundTimeoutMs: limits.roundTimeoutMs,
      maxRounds: limits.maxRounds,
      ...(deps.handlerVersion !== undefined ? { handlerVersion: deps.handlerVersion } : {}),
      ...(deps.questionEvents ? { questionEvents: deps.questionEvents } : {}),
    };
    // Before anything is written: a call over its quotas (quotas.ts) leaves no row and no workflow.
    const taken = deps.quotas ? await deps.quotas.take(leg.principal, request) : undefined;
    // The row exists before the workflow does, so an exchange Temporal ends at once still has a record
    // to end; it is written only while the deployment runs fewer than its budget of exchanges, and an
    // authenticated principal fewer than its own (capacity.ts).
    // With the trace context of this leg, which holds the workflow's trace: later legs link to it.
    const budgets = [limits.maxRunningExchanges, principalBudget(leg.principal, limits), activeTraceContext()] as const;
    const room = await (
      leg.joins
        ? store.createOrJoinExchange(
            input,
            workflowIdFor(exchangeId),
            { digest: requestDigestOf(request), ...leg.joins },
            ...budgets,
          )
        : store.createExchange(input, workflowIdFor(exchangeId), ...budgets)
    ).catch(async (error: unknown) => {
      await taken?.giveBack();
      throw error;
    });
    if (typeof room === 'object') {
      // The same call runs already: this leg joins it, and nothing is started.
      if (!room.sameCall) {
        await taken?.giveBack();
        throw idempotencyKeyReused();
      }
      return { joins: room.joins };
    }
    if (room !== 'room') await taken?.giveBack();
    refuseFullRoom(room, limits);
    let task: TaskRecord | undefined;
    try {
      if (asTask) {
        task = await taskFor(exchangeId, leg.principal.id, requestedTtlMs);
        input.task = taskModeOf(task);
      }
      const { tenant } = leg.principal;
      await gateway.start(input, { ...leg.origin, ...(tenant !== undefined ? { tenant } : {}) });
    } catch (error) {
      // Temporal refused or could not be reached: the client is told, and no half-started exchange stays
      // behind; nor does the call count against its quotas.
      await store.forgetUnstarted(exchangeId).catch(() => undefined);
      await taken?.giveBack();
      throw error;
    }
    exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId), round: 1 }).info(
      { method: request.method, target: request.target, era: leg.era },
      'exchange started',
    );
    return task ? { task } : {};
  };
}

/** What starting a first leg did: started its exchange (as a task: `task`), or found the same call's to join. */
export interface Started {
  task?: TaskRecord;
  joins?: string;
}

/** The SEP-3182 draft's refusal of a key already used for a call with other arguments. */
const idempotencyKeyReused = () =>
  invalidParams('Invalid params: params.idempotencyKey was used for another call (other tool or arguments)', {
    path: 'params.idempotencyKey',
  });
