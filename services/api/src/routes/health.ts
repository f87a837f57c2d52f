/**
 * Liveness and readiness, kept apart on purpose:
 *
 * - `GET /healthz` (liveness) says this process serves HTTP. It never asks a dependency: a
 *   Postgres or Temporal outage is not cured by restarting the API, so a liveness probe that
 *   failed on one would only have an orchestrator kill healthy replicas in a loop.
 * - `GET /readyz` (readiness) says this replica can take traffic: every check answers in time
 *   (Postgres, Temporal, and the newest migration file applied). 503 names each that failed.
 *   It is public, so it says only `ok`, `failed` or `timeout` per check: the reason (a driver's
 *   error text, which can hold host names, users or schema names) goes to the log, for operators.
 */
import { Router } from 'express';
import type { Logger } from '../../../../lib/log';

export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency is ready; rejects with the reason it is not. */
  check(): Promise<void>;
}

export interface HealthRoutesOptions {
  checks: ReadinessCheck[];
  /** How long one check may take before it counts as failed (READY_CHECK_TIMEOUT_MS). */
  checkTimeoutMs: number;
  /** Where each failed check's reason goes. */
  log: Logger;
}

export type CheckState = 'ok' | 'failed' | 'timeout';

/** The outcome of one check; a failure's reason is logged, never answered. */
async function run(check: ReadinessCheck, timeoutMs: number, log: Logger): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<CheckState>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const state = await Promise.race([
      check.check().then(
        (): CheckState => 'ok',
        (error: unknown): CheckState => {
          log.warn({ check: check.name, reason: (error as Error)?.message || 'unreachable' }, 'readiness check failed');
          return 'failed';
        },
      ),
      timedOut,
    ]);
    if (state === 'timeout') log.warn({ check: check.name, timeoutMs }, 'readiness check timed out');
    return state;
  } finally {
    clearTimeout(timer);
  }
}

export function healthRouter(options: HealthRoutesOptions): Router {
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      options.checks.map(async (check) => [check.name, await run(check, options.checkTimeoutMs, options.log)] as const),
    );
    const failed = results.filter(([, state]) => state !== 'ok').map(([name]) => name);
    res
      .status(failed.length === 0 ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({
        status: failed.length === 0 ? 'ready' : 'unavailable',
        ...(failed.length > 0 ? { failed } : {}),
        checks: Object.fromEntries(results),
      });
  });
  return router;
}
