/**
 * Waiting for what a parent process started to be ready: a probe retried until it passes, the
 * process it waits on exits (said at once, not after the budget), or the budget runs out. The
 * probes a stack needs: a service's /healthz, and a worker polling its Temporal task queue.
 */
import { Connection } from '@temporalio/client';

const STARTUP_BUDGET_MS = 180_000;

export async function until(
  what: string,
  probe: () => Promise<boolean>,
  gone: () => string | undefined,
  budgetMs = STARTUP_BUDGET_MS,
): Promise<void> {
  const deadline = Date.now() + budgetMs;
  for (;;) {
    const why = gone();
    if (why) throw new Error(`${what}: ${why}`);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${budgetMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Until `GET /healthz` next to an `/mcp` URL answers 200. */
export function waitForHealth(mcpUrl: string, gone: () => string | undefined): Promise<void> {
  const health = mcpUrl.replace(/\/mcp$/, '/healthz');
  return until(
    `waiting for ${health}`,
    async () => (await fetch(health, { signal: AbortSignal.timeout(2_000) })).ok,
    gone,
  );
}

/** Until a worker polls `taskQueue` for workflow tasks. */
export async function waitForPollers(
  address: string,
  taskQueue: string,
  gone: () => string | undefined,
  namespace = 'default',
): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await until(
      `waiting for a worker on ${taskQueue}`,
      async () => {
        const reply = await connection.workflowService.describeTaskQueue({
          namespace,
          taskQueue: { name: taskQueue },
          taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
        });
        return (reply.pollers?.length ?? 0) > 0;
      },
      gone,
    );
  } finally {
    await connection.close();
  }
}
