/**
 * Heartbeats while a round runs as a regular activity, so a worker killed mid-round (or after
 * recording but before reporting) is noticed within the heartbeat timeout instead of the whole
 * start-to-close timeout. A local activity does not heartbeat: it runs inside its workflow task, and
 * a worker that dies is noticed when that task times out. Outside an activity (a unit test calling
 * the function directly) it does nothing.
 */
import { Context } from '@temporalio/activity';

function currentContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}

/** This activity's attempt number (1 for the first), or 1 outside an activity. */
export function activityAttempt(): number {
  return currentContext()?.info.attempt ?? 1;
}

/** Whether this runs as a local activity (inside its workflow task). */
export function isLocalActivity(): boolean {
  return currentContext()?.info.isLocal ?? false;
}

export function keepHeartbeating(everyMs: number): () => void {
  const context = currentContext();
  if (!context || context.info.isLocal) return () => undefined;
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Aborted when the workflow cancels this activity (a task cancelled or past its TTL while the round
 * runs); a regular activity learns it from its next heartbeat. Never aborted outside an activity.
 */
export function cancellationSignal(): AbortSignal {
  return currentContext()?.cancellationSignal ?? new AbortController().signal;
}
