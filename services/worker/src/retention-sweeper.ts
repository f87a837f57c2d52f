/** Runs the retention sweep on an interval in the worker process (one worker sweeps at a time). */
import type { Pool } from 'pg';
import { sweepExpiredRecords } from '../../../lib/db/retention';
import type { Logger } from '../../../lib/log';

export function startRetentionSweeper(pool: Pool, options: { retentionMs: number; sweepEveryMs: number }, log: Logger) {
  const sweep = () =>
    sweepExpiredRecords(pool, options.retentionMs).then(
      (result) => result && (result.exchanges || result.sessions) && log.info(result, 'expired records deleted'),
      (error) => log.warn({ err: error }, 'retention sweep failed; will try again'),
    );
  const timer = setInterval(sweep, options.sweepEveryMs);
  timer.unref();
  void sweep(); // sweep handles both outcomes (a failure is logged), so it never rejects
  return { stop: () => clearInterval(timer) };
}
