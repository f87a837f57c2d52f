/**
 * Fairness in the engine: each exchange's workflow starts with its caller's fairness key (the
 * tenant's with FAIRNESS_KEY=tenant, when the token names one; else the principal's) and the
 * priority its handler declares, and its regular activities carry the same. On the test stack's
 * dev server, which runs with fairness on as `durable-mcp dev` does, a quiet caller's exchange
 * is taken ahead of a backlog another caller queued first. Real Temporal dev server, real
 * Postgres, real tokens from a real authorization server, raw 2026-07-28 legs.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { defineTool, type HandlerSet } from '@durable-mcp/handlers';
import { demoHandlers } from '../../built-in-handlers/demo';
import { tenantOf } from '../../lib/auth/tenant-claim';
import { fairnessKeyOf } from '../../lib/exchange/fairness';
import { principalId } from '../../lib/exchange/principal';
import { exchangeStartedBy } from '../support/exchange-rows';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack';
import { rawCall } from '../support/raw-mcp';

const EventType = temporal.api.enums.v1.EventType;

/** A tool a person waits on: declared first in the queue, run as a regular activity. */
const urgent = defineTool({
  tool: { name: 'urgent_lookup', inputSchema: { type: 'object' } },
  roundActivity: 'regular',
  priority: 1,
  run: () => ({ content: [{ type: 'text', text: 'found' }] }),
});
const handlers: HandlerSet = { ...demoHandlers, name: 'fairness', tools: [...demoHandlers.tools, urgent] };

let stack: OAuthStack;
beforeAll(async () => {
  // A short wait per leg: the backlog's first legs return at once while no worker runs.
  stack = await startOAuthStack({ FAIRNESS_KEY: 'tenant', TENANT_CLAIM: 'org_id', HTTP_WAIT_MS: '200' }, { handlers });
});
afterAll(() => stack.close());

const withToken = (authorization: string) => ({ headers: { authorization } });
const greet = (authorization: string) =>
  rawCall(stack.service.url, 'tools/call', { name: 'greet', arguments: {} }, undefined, withToken(authorization));
const handleOf = (workflowId: string): WorkflowHandle => stack.service.temporal.workflow.getHandle(workflowId);

/** The workflow's priority as Temporal keeps it (`DescribeWorkflowExecution`). */
async function workflowPriority(workflowId: string) {
  const { raw } = await handleOf(workflowId).describe();
  return raw.workflowExecutionInfo?.priority;
}

describe("an exchange's tasks", () => {
  it("carry its caller's tenant key and its tool's priority, on the workflow and on its activity", async () => {
    const pat = await stack.personBearer('pat', 'pat-desk', 'mcp', { org_id: 'acme' });
    const exchange = await exchangeStartedBy(stack.service.pool, 'urgent_lookup', () =>
      rawCall(stack.service.url, 'tools/call', { name: 'urgent_lookup', arguments: {} }, undefined, withToken(pat)),
    );
    await handleOf(exchange.workflow_id).result();
    // The tenant as the token's issuer names it (lib/auth/tenant-claim.ts), then digested.
    const tenant = tenantOf({ org_id: 'acme' }, 'org_id', stack.as.issuer);
    const key = fairnessKeyOf({ principal: principalId(stack.as.issuer, 'pat', 'pat-desk'), tenant }, 'tenant');
    expect(key).toMatch(/^tenant:[0-9a-f]{32}$/);
    expect(await workflowPriority(exchange.workflow_id)).toMatchObject({ fairnessKey: key, priorityKey: 1 });

    const history = await handleOf(exchange.workflow_id).fetchHistory();
    const scheduled = history.events!.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
    expect(scheduled.length).toBeGreaterThan(0);
    for (const event of scheduled)
      expect(event.activityTaskScheduledEventAttributes?.priority).toMatchObject({ fairnessKey: key, priorityKey: 1 });
    // The key names neither the tenant nor the person.
    expect(JSON.stringify(history.events![0]!.workflowExecutionStartedEventAttributes?.priority)).not.toMatch(
      /acme|pat/,
    );
  });

  it("carry the principal's key when the token names no tenant, and no priority the tool did not declare", async () => {
    const exchange = await exchangeStartedBy(stack.service.pool, 'greet', async () =>
      greet(await stack.bearer('alice')),
    );
    const priority = await workflowPriority(exchange.workflow_id);
    expect(priority?.fairnessKey).toBe(fairnessKeyOf({ principal: stack.principal('alice') }, 'principal'));
    expect(priority?.priorityKey ?? 0).toBe(0);
  });
});

/** The greet exchanges of `principal`, by id, with their workflow ids. */
async function greetsOf(principal: string): Promise<Map<string, string>> {
  const { rows } = await stack.service.pool.query<{ id: string; workflow_id: string }>(
    "SELECT id, workflow_id FROM exchanges WHERE target = 'greet' AND principal = $1",
    [principal],
  );
  return new Map(rows.map((row) => [row.id, row.workflow_id]));
}

/** When a worker took the workflow's first task (its first WorkflowTaskStarted), in ns since the epoch. */
async function firstTaskTaken(workflowId: string): Promise<bigint> {
  for (;;) {
    const { events } = await handleOf(workflowId).fetchHistory();
    const started = events!.find((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED);
    if (started?.eventTime)
      return BigInt(String(started.eventTime.seconds)) * 1_000_000_000n + BigInt(started.eventTime.nanos ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a quiet caller behind a backlog', () => {
  const BACKLOG = 24;

  it("is taken ahead of most of another caller's tasks queued before it (fairness on at the server)", async () => {
    const [alice, bob] = [await stack.bearer('alice'), await stack.bearer('bob')];
    const earlier = await greetsOf(stack.principal('alice'));
    const earlierBob = await greetsOf(stack.principal('bob'));
    await stack.service.stopWorker();
    try {
      // Every task of the backlog is queued before the quiet caller's: no worker takes any yet.
      for (let i = 0; i < BACKLOG; i += 1) await greet(alice);
      await greet(bob);
    } finally {
      await stack.service.startWorker();
    }
    const backlog = [...(await greetsOf(stack.principal('alice')))].filter(([id]) => !earlier.has(id));
    const quiet = [...(await greetsOf(stack.principal('bob')))].filter(([id]) => !earlierBob.has(id));
    expect(backlog).toHaveLength(BACKLOG);
    expect(quiet).toHaveLength(1);

    const quietTaken = await firstTaskTaken(quiet[0]![1]);
    const taken = await Promise.all(backlog.map(([, workflowId]) => firstTaskTaken(workflowId)));
    const aheadOfQuiet = taken.filter((at) => at < quietTaken).length;
    // In order of arrival (a server without fairness) it is taken after the whole backlog; handed
    // out key by key, after a few (one per partition of the task queue: four here), or, on a busy
    // machine where the worker's pollers take tasks from every partition at once, up to about half
    // of it (12 of 24 seen under load): well ahead of its place in the queue all the same.
    expect(aheadOfQuiet).toBeLessThan((BACKLOG * 3) / 4);
  });
});
