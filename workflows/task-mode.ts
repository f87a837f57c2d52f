/**
 * Task mode (the Tasks extension, SEP-2663) of an exchange's workflow: the same exchange with a
 * `TaskMode`, from its input when the call became a task at once, or from the answers that turned
 * an MRTR exchange into one. In task mode a cancel or the task's TTL interrupts a running round (its
 * activity is cancelled and the handler's `ctx.signal` aborted) instead of waiting for it, and the
 * TTL is a durable timer that ends the task if it still runs. Only a workflow in task mode issues
 * these commands, and no exchange started before tasks existed is in task mode, so their histories
 * replay unchanged (compat.ts).
 */
import { CancellationScope, condition, isCancellation, sleep } from '@temporalio/workflow';
import type { ExchangeInput, OutcomeError, TaskMode } from '../lib/exchange/types';
import { taskExpired } from '../lib/protocol/exchange-errors';
import type { ExchangeState } from '../lib/exchange-rules/exchange-state';

export function createTaskMode(input: ExchangeInput, state: ExchangeState) {
  /** Set once the exchange is a task: from its input, or from the answers that made it one. */
  let task: TaskMode | undefined = input.task;
  /** The task's TTL has passed: it ends now, whatever it was doing. */
  let ttlReached = false;
  let ttlTimer = false;
  /** What interrupts a task's round: a cancel, or its TTL. */
  const interrupted = () => state.cancelRequested === true || ttlReached;

  return {
    /** Makes the exchange a task, unless it is one already (answers whose tool's task begins after its input). */
    begin(mode: TaskMode | undefined): void {
      if (mode && !task) task = mode;
    },

    /** Whether the task's TTL has passed (never outside task mode). */
    ttlReached: () => ttlReached,

    /** Whether the exchange is a task whose TTL has passed. */
    expired: () => task !== undefined && ttlReached,

    /** Starts the task's TTL timer, once, when the exchange is (or has become) a task. */
    watchTtl(): void {
      if (!task || ttlTimer) return;
      ttlTimer = true;
      sleep(Math.max(1, task.expiresAt - Date.now()), { summary: 'task TTL' }).then(
        () => (ttlReached = true),
        () => undefined, // cancelled with the workflow: it ends anyway
      );
    },

    /** Whether `error` is a task's round cancelled by its cancel or TTL. */
    interrupts: (error: unknown): boolean => task !== undefined && interrupted() && isCancellation(error),

    /**
     * Runs a round so that, in task mode, a cancel or the TTL cancels it (the activity is told, and
     * the workflow stops waiting for it). Outside task mode it runs as it always has.
     */
    async interruptible<T>(work: () => Promise<T>): Promise<T> {
      if (!task) return work();
      const scope = new CancellationScope();
      condition(interrupted).then(
        () => scope.cancel(),
        () => undefined, // cancelled with the workflow: nothing left to interrupt
      );
      return scope.run(work);
    },

    /** How an interrupted task ends: cancelled (`cancelled()`), or expired at its TTL. */
    ending(cancelled: () => OutcomeError): OutcomeError {
      return state.cancelRequested ? cancelled() : taskExpired(input.exchangeId, task!.ttlMs);
    },
  };
}

export type TaskModeOf = ReturnType<typeof createTaskMode>;
