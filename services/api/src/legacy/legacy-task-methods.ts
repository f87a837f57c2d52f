/**
 * `tasks/get`, `tasks/result` and `tasks/cancel` of a 2025-11-25 session. A task is the exchange
 * its `tools/call` started, recorded as the session's call like any other (so its server-to-client
 * requests are written to the call's stream by the worker, with the related-task `_meta`), and the
 * 2026-07-28 wire's task row (TTL, principal). These read Postgres and signal the workflow:
 *
 * - tasks/get answers the Task (legacy-task-view.ts), from any replica.
 * - tasks/result of an ended task answers its result (or its error) at once; of a running one it
 *   is a stream (streamable-http.ts): the requests still open, then the call's stream as the worker
 *   writes it, ending with the call's response re-addressed to this tasks/result. Answers come back
 *   through the response intake like every other answer. A tasks/result that goes away ends
 *   nothing; another one may come.
 * - tasks/cancel is the exchange's cancel: it waits (at most `cancelWaitMs`) for the workflow to
 *   record the ending, and answers the cancelled Task; a task already ended is -32602.
 * - tasks/list pages through the session's unexpired tasks, TASK_LIST_PAGE_SIZE at a time; its
 *   cursor is the last task id of the previous page (the session's own, so it reveals nothing),
 *   and a cursor that cannot be one is -32602.
 *
 * A task belongs to the session that created it (and so to its principal): from any other
 * session, as for an unknown or expired id, the answer is -32602, one answer for all.
 */
import { z } from 'zod';
import type { LegacyCall, LegacySession, LegacyStore, OpenRequest } from '../../../../lib/db/legacy-store';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import type { TaskSnapshot, TaskStore } from '../../../../lib/db/task-store';
import { sessionRef, type Logger } from '../../../../lib/log';
import { fromOutcome, invalidParams, taskNotFound } from '../../../../lib/protocol/error-catalog';
import type { LegacyTaskMethod } from '../../../../lib/protocol/legacy-tasks';
import { linkToExchangeTrace } from '../../../../lib/tracing/exchange-trace';
import { tagLegExchange } from '../../../../lib/tracing/leg-span';
import type { ExchangeGateway } from '../../../../lib/exchange-client/exchange-gateway';
import type { ExchangeReconciler } from '../../../../lib/exchange-client/exchange-reconciler';
import { parseParams } from '../../../../lib/protocol/parse-params';
import { createQuietTaskCheck } from '../tasks/quiet-task-check';
import { isTerminal, legacyTask, taskResult } from './legacy-task-view';

const TaskIdParamsSchema = z.object({ taskId: z.string().min(1) }).passthrough();
/** A cursor is a task id (newTaskId: 32 base64url characters); room is left for a longer one. */
const ListParamsSchema = z
  .object({
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,128}$/)
      .optional(),
  })
  .passthrough();

/** Tasks one tasks/list page holds at most. */
export const TASK_LIST_PAGE_SIZE = 50;

export interface LegacyTaskMethodsDeps {
  tasks: TaskStore;
  legacy: LegacyStore;
  gateway: ExchangeGateway;
  reconciler: ExchangeReconciler;
  waiter: OutcomeWaiter;
  /** How long a running task may show no change before a read asks Temporal about its workflow (HTTP_WAIT_MS). */
  reconcileAfterMs: number;
  /** How long tasks/cancel waits for the workflow to record the cancel (HTTP_WAIT_MS). */
  cancelWaitMs: number;
  log: Logger;
  /** A question's page, when the answer page is on: a waiting message names the caller's own question's page. */
  questionPageUrl?: (questionId: string) => string;
}

/** What a task method answers: a result now, or (tasks/result of a running task) the task's stream. */
export type TaskMethodAnswer =
  | { kind: 'result'; result: Record<string, unknown> }
  | {
      kind: 'task-stream';
      call: LegacyCall;
      taskId: string;
      /** The stream is delivered after this event id; the requests still open before it go first. */
      afterId: number;
      openRequests: Array<OpenRequest & { eventId?: number }>;
    };

export function createLegacyTaskMethods(deps: LegacyTaskMethodsDeps) {
  const { tasks, legacy, gateway, reconciler, waiter, log } = deps;
  const endedUnrecorded = createQuietTaskCheck(reconciler, deps.reconcileAfterMs);

  /** The session's task with its call, or -32602 (unknown, expired and another session's look the same). */
  async function ownTask(method: LegacyTaskMethod, session: LegacySession, params: unknown) {
    const { taskId } = parseParams(TaskIdParamsSchema, params);
    const task = await tasks.read(taskId);
    const call = task && (await legacy.callOfExchange(task.exchangeId));
    if (!task || !call || call.sessionId !== session.id || task.principal !== session.principal) {
      if (task)
        log.warn(
          { method, exchangeId: task.exchangeId, ...sessionRef(session.id) },
          "task refused: not this session's",
        );
      throw taskNotFound();
    }
    tagLegExchange(task.exchangeId);
    await linkToExchangeTrace(async () => task.traceContext);
    return { task: (await endedUnrecorded(task)) ? ((await tasks.read(taskId)) ?? task) : task, call };
  }

  /** The keys of the task's current ask its client already answered (responses to the server's requests). */
  async function answeredKeys(task: TaskSnapshot): Promise<string[]> {
    const round = task.lastRound;
    if (round?.outcome.kind !== 'ask') return [];
    return (await legacy.answersOfRound(task.exchangeId, round.round)).map((answer) => answer.key);
  }

  const view = async (task: TaskSnapshot) => legacyTask(task, await answeredKeys(task), deps.questionPageUrl);

  async function get(session: LegacySession, params: unknown): Promise<TaskMethodAnswer> {
    const { task } = await ownTask('tasks/get', session, params);
    return { kind: 'result', result: { ...(await view(task)) } };
  }

  async function result(session: LegacySession, params: unknown): Promise<TaskMethodAnswer> {
    const { task, call } = await ownTask('tasks/result', session, params);
    // The cursor is read before the task, so an ending recorded after it is on the stream from
    // there, and one recorded before it is in the task read now: nothing falls in between.
    const afterId = await legacy.lastEventId(call.streamId);
    const now = (await tasks.read(task.taskId)) ?? task;
    const outcome = now.lastRound?.outcome;
    if (outcome?.kind === 'complete') return { kind: 'result', result: taskResult(outcome.result, task.taskId) };
    if (outcome?.kind === 'error') throw fromOutcome(outcome.error);
    // Requests written after the cursor come with the stream; those before it are re-sent first.
    const openRequests = (await legacy.openRequestsOfSession(session.id)).filter(
      (request) => request.exchangeId === task.exchangeId && (request.eventId ?? 0) <= afterId,
    );
    return { kind: 'task-stream', call, taskId: task.taskId, afterId, openRequests };
  }

  async function cancel(session: LegacySession, params: unknown): Promise<TaskMethodAnswer> {
    const { task } = await ownTask('tasks/cancel', session, params);
    const before = await view(task);
    if (isTerminal(before))
      throw invalidParams(`Cannot cancel task: it is already ${before.status}`, { path: 'params.taskId' });
    // Whatever ends the exchange now is recorded as the round after its last one (an interrupted
    // round, or the one after an ask): watched before the cancel, so the record cannot slip by.
    const watch = waiter.watchRound(task.exchangeId, (task.lastRound?.round ?? 0) + 1);
    try {
      if (!(await gateway.cancel(task.exchangeId, 'tasks/cancel', 'client')))
        await reconciler.reconcile(task.exchangeId);
      await watch.wait(deps.cancelWaitMs);
    } finally {
      watch.close();
    }
    const after = await tasks.read(task.taskId);
    const ended = after ? await view(after) : undefined;
    if (ended && isTerminal(ended)) return { kind: 'result', result: { ...ended } };
    // Temporal holds the cancel durably, but no worker recorded it yet: the task ends cancelled as
    // soon as one runs, and its client is told so now, as the revision requires.
    log.warn(
      { exchangeId: task.exchangeId, ...sessionRef(session.id) },
      'task cancel not yet recorded by the workflow',
    );
    return {
      kind: 'result',
      result: { ...(ended ?? before), status: 'cancelled', statusMessage: 'Cancelled by tasks/cancel' },
    };
  }

  async function list(session: LegacySession, params: unknown): Promise<TaskMethodAnswer> {
    const { cursor } = parseParams(ListParamsSchema, params);
    const ids = await legacy.taskIdsOfSession(session.id, cursor, TASK_LIST_PAGE_SIZE + 1);
    const page = ids.slice(0, TASK_LIST_PAGE_SIZE);
    const listed = [];
    for (const taskId of page) {
      const task = await tasks.read(taskId);
      if (task) listed.push(await view(task)); // gone at its TTL meanwhile: left out
    }
    const more = ids.length > TASK_LIST_PAGE_SIZE;
    return { kind: 'result', result: { tasks: listed, ...(more ? { nextCursor: page.at(-1) } : {}) } };
  }

  const methods: Record<LegacyTaskMethod, (session: LegacySession, params: unknown) => Promise<TaskMethodAnswer>> = {
    'tasks/get': get,
    'tasks/result': result,
    'tasks/cancel': cancel,
    'tasks/list': list,
  };
  return methods;
}

export type LegacyTaskMethods = ReturnType<typeof createLegacyTaskMethods>;
