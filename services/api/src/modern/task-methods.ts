/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (the Tasks extension, SEP-2663). A task is an
 * exchange, so these read the exchange's records in Postgres (any replica, no Temporal call for
 * a read) and signal its workflow:
 *
 * - tasks/get answers the task's `DetailedTask` (task-view.ts).
 * - tasks/update answers keys of the current ask: each key still outstanding is signalled to the
 *   workflow on its own (the `keyAnswer` signal the legacy era's answers use, so several
 *   questions may be outstanding and answered one at a time), then recorded as answered, so the
 *   next tasks/get leaves it out. Keys not outstanding (never asked, answered already, an ask
 *   that is over) are ignored, as the extension says. A key recorded only after its signal means
 *   a crash between the two leaves it outstanding, and its client's retry signals a duplicate,
 *   which the workflow ignores: the answer that counts is the first one the workflow took.
 * - tasks/cancel is the exchange's cancel; it is acknowledged whatever the task's state.
 *
 * A workflow that Temporal closed without recording an ending (an operator's terminate, say)
 * leaves its task reading as running: a task/update or tasks/cancel that finds no workflow, and a
 * tasks/get of a task nothing was recorded for in `reconcileAfterMs` (at most once per that time
 * per task on a replica), ask Temporal and record the ending, so no client polls such a task until
 * its TTL.
 *
 * Each is refused with -32021 when the request did not declare the extension, and an unknown,
 * expired or foreign task id is -32602, one answer for all three.
 */
import { z } from 'zod';
import type { TaskSnapshot, TaskStore } from '../../../../lib/db/task-store';
import { answerBytes, roundInputTooLarge } from '../../../../lib/exchange-rules/round-input-size';
import type { Logger } from '../../../../lib/log';
import { taskNotFound, tooLarge } from '../../../../lib/protocol/error-catalog';
import { linkToExchangeTrace } from '../../../../lib/tracing/exchange-trace';
import { tagLegExchange } from '../../../../lib/tracing/leg-span';
import { declaresTasks, tasksNotDeclared, type TaskMethod } from '../../../../lib/protocol/tasks';
import type { ExchangeGateway } from '../../../../lib/exchange-client/exchange-gateway';
import { redeliverIfMissing } from '../../../../lib/exchange-client/answer-redelivery';
import type { ExchangeReconciler } from '../../../../lib/exchange-client/exchange-reconciler';
import { parseParams } from '../../../../lib/protocol/parse-params';
import type { CallContext } from './call-context';
import { complete } from './wire-result';
import type { ModernEnvelope } from './validate-request';
import { createQuietTaskCheck } from '../tasks/quiet-task-check';
import { outstandingRequests } from '../tasks/task-phase';
import { detailedTask } from '../tasks/task-view';

const TaskIdSchema = z.string().min(1);
const GetTaskParamsSchema = z.object({ taskId: TaskIdSchema });
const UpdateTaskParamsSchema = z.object({
  taskId: TaskIdSchema,
  inputResponses: z.record(z.string(), z.record(z.string(), z.unknown())),
});

export interface TaskMethodsDeps {
  tasks: TaskStore;
  gateway: ExchangeGateway;
  reconciler: ExchangeReconciler;
  /** How long a running task may show no change before tasks/get asks Temporal whether its workflow still runs (HTTP_WAIT_MS). */
  reconcileAfterMs: number;
  /** The same budget one round's input has on every other path (MAX_ROUND_INPUT_BYTES). */
  maxRoundInputBytes: number;
  /** Counts one check of a retried answer against its round's MAX_REPEATED_ANSWERS (answer-redelivery.ts). */
  countRedeliveryCheck: (exchangeId: string, round: number) => Promise<boolean>;
  log: Logger;
  /** A question's page, when the answer page is on: a waiting message names the caller's own question's page. */
  questionPageUrl?: (questionId: string) => string;
}

type TaskMethodHandler = (
  params: unknown,
  envelope: ModernEnvelope,
  call: CallContext,
) => Promise<Record<string, unknown>>;

export function createTaskMethods(deps: TaskMethodsDeps): Record<TaskMethod, TaskMethodHandler> {
  const endedUnrecorded = createQuietTaskCheck(deps.reconciler, deps.reconcileAfterMs);

  /** A running task quiet for longer than `reconcileAfterMs`, not asked about since: Temporal is asked. */
  async function reconciled(method: TaskMethod, task: TaskSnapshot, call: CallContext): Promise<TaskSnapshot> {
    return (await endedUnrecorded(task)) ? ownTask(method, task.taskId, call) : task;
  }

  /** The caller's task, or -32602 (unknown, expired and another principal's look the same). */
  async function ownTask(method: TaskMethod, taskId: string, call: CallContext): Promise<TaskSnapshot> {
    const task = await deps.tasks.read(taskId);
    if (!task || task.principal !== call.caller.id) {
      if (task) deps.log.warn({ method, exchangeId: task.exchangeId }, 'task refused: another principal owns it');
      throw taskNotFound();
    }
    tagLegExchange(task.exchangeId);
    await linkToExchangeTrace(async () => task.traceContext);
    return task;
  }

  const gated =
    (method: TaskMethod, handle: (params: unknown, call: CallContext) => Promise<Record<string, unknown>>) =>
    (params: unknown, envelope: ModernEnvelope, call: CallContext) => {
      if (!declaresTasks(envelope.clientCapabilities)) throw tasksNotDeclared(method);
      return handle(params, call);
    };

  return {
    'tasks/get': gated('tasks/get', async (params, call) => {
      const { taskId } = parseParams(GetTaskParamsSchema, params);
      const task = await reconciled('tasks/get', await ownTask('tasks/get', taskId, call), call);
      return complete(detailedTask(task, deps.questionPageUrl));
    }),

    'tasks/update': gated('tasks/update', async (params, call) => {
      const { taskId, inputResponses } = parseParams(UpdateTaskParamsSchema, params);
      const refusal = roundInputTooLarge(
        { params: {}, answers: inputResponses, clientCapabilities: {} },
        deps.maxRoundInputBytes,
      );
      if (refusal) throw refusal;
      const task = await ownTask('tasks/update', taskId, call);
      const round = task.lastRound;
      if (task.exchangeStatus !== 'running' || round?.outcome.kind !== 'ask') return complete({});
      const asked = round.outcome.inputRequests;
      const outstanding = outstandingRequests(asked, task.answeredKeys);
      const fresh = Object.keys(inputResponses)
        .filter((key) => Object.hasOwn(outstanding, key))
        .map((key) => ({ key, bytes: answerBytes(inputResponses[key]) }));
      // The round's answers reach its handler together, in one payload: those taken before count.
      // The keys are claimed before they are signalled, under the task's row lock, so two updates
      // at once cannot both take a key or both fit the budget. Claimed but not signalled (this
      // process dies in between): the client's retry finds the key answered, and the workflow,
      // asked, says it lacks it, so it is sent again (below).
      const claim = await deps.tasks.claimAnswers(task.exchangeId, round.round, fresh, deps.maxRoundInputBytes);
      if ('overBudget' in claim)
        throw tooLarge(
          "this round's answers (these and those taken before)",
          'params.inputResponses',
          deps.maxRoundInputBytes,
          claim.overBudget,
        );
      for (const key of claim.claimed) {
        const delivered = await deps.gateway.sendKeyAnswer(task.exchangeId, {
          round: round.round,
          key,
          response: inputResponses[key],
        });
        if (!delivered) {
          // The workflow is gone: its ending is recorded if it could not record it itself.
          await deps.reconciler.reconcile(task.exchangeId);
          return complete({});
        }
      }
      deps.log.info({ exchangeId: task.exchangeId, round: round.round, keys: claim.claimed }, 'task answers signalled');
      // Keys answered before, sent again while their ask still waits: the workflow says whether it
      // has them, and gets again only those it lacks (answer-redelivery.ts). An answer no larger than
      // the one recorded keeps the round within the budget the first one was counted against.
      const retried = Object.keys(inputResponses).filter(
        (key) =>
          Object.hasOwn(asked, key) &&
          task.answeredKeys.includes(key) &&
          answerBytes(inputResponses[key]) <= (task.answeredKeyBytes[key] ?? 0),
      );
      // One check of the round's budget per tasks/update, whatever number of its keys it retries.
      let counted: Promise<boolean> | undefined;
      const countCheck = () => (counted ??= deps.countRedeliveryCheck(task.exchangeId, round.round));
      for (const key of retried)
        await redeliverIfMissing(deps.gateway, deps.log, {
          exchangeId: task.exchangeId,
          round: round.round,
          key,
          era: 'modern',
          deliver: () =>
            deps.gateway.sendKeyAnswer(task.exchangeId, { round: round.round, key, response: inputResponses[key] }),
          countCheck,
        });
      return complete({});
    }),

    'tasks/cancel': gated('tasks/cancel', async (params, call) => {
      const { taskId } = parseParams(GetTaskParamsSchema, params);
      const task = await ownTask('tasks/cancel', taskId, call);
      if (task.exchangeStatus === 'running' && !(await deps.gateway.cancel(task.exchangeId, 'tasks/cancel', 'client')))
        await deps.reconciler.reconcile(task.exchangeId);
      return complete({});
    }),
  };
}
