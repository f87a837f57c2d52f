/**
 * Heartbeats while a round runs, so a worker killed mid-round (or after recording but before
 * reporting) is noticed within the heartbeat timeout instead of the whole start-to-close timeout.
 * Outside an activity (a unit test calling the function directly) it does nothing.
 */
import { Context } from '@temporalio/activity';

/** This activity's attempt number (1 for the first), or 1 outside an activity. */
export function activityAttempt(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}

export function keepHeartbeating(everyMs: number): () => void {
  let context: Context;
  try {
    context = Context.current();
  } catch {
    return () => undefined;
  }
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
