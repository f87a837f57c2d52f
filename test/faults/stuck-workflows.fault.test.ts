/**
 * An exchange whose workflow cannot run ends all the same. Each scenario makes a waiting exchange's
 * workflow tasks fail for good, one cause each: an answer signalled in with a payload the worker
 * refuses (bound to the namespace alone), a worker whose workflow code no longer replays the
 * exchange's history (non-determinism), an answer whose round's record is over Temporal's payload
 * limit (made small here, so it is cheap); and an API killed after a new call's row was written but
before its workflow started, which leaves a row no workflow will ever end. Temporal would retry those tasks for ever; the API's
 * stuck workflow sweep ends each exchange within STUCK_WORKFLOW_AFTER_MS (a few seconds here) with
 * `-32603` naming the class, which the caller's next leg gets in its era (a 2026-07-28 retry, a
 * legacy call's stream, `tasks/get`), Postgres, the workflow's termination and the admin list
 * agree on, and the metric counts. The rounds recorded before stay.
 */
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { TEST_ADMIN_TOKEN } from '../support/admin-client';
import { createdTaskId, taskClient } from '../support/task-client';
import { accept, rawCall } from '../support/raw-mcp';
import { exchangeOfWizard, finalReply, nextRequest, respondStep, startLegacyWizard } from './support/legacy-wizard';
import { answerGreet, newTrace, startGreet } from './support/modern-exchange';
import { NO_REPLY, withGatedApi } from './support/gated-api';
import { faultSuite, scenario } from './support/scenario';
import { endedFor, signalNamespaceOnlyAnswer, stuckEnding, stuckWorkflowsEnded } from './support/stuck-ending';
import { waitFor } from './support/wait-for';

/** Temporal's payload limit for this stack: every payload the service writes fits, a round carrying a long answer does not. */
const BLOB_LIMIT = 16_384;

const suite = faultSuite({
  temporalArgs: [
    '--dynamic-config-value',
    `limit.blobSize.error=${BLOB_LIMIT}`,
    '--dynamic-config-value',
    `limit.blobSize.warn=${BLOB_LIMIT / 2}`,
  ],
  apiEnv: {
    STUCK_WORKFLOW_AFTER_MS: '4000',
    STUCK_WORKFLOW_SWEEP_MS: '500',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    // Counted, never reached here: scenario d reads what one call took.
    QUOTA_CALLS_PER_DAY_PER_PRINCIPAL: '100000',
  },
});

const apis = { urls: () => suite.stack.apiUrls() };

/** The counter's rise over `run`, summed over both API processes (one of them ended it). */
async function counted(cause: string, run: () => Promise<void>): Promise<number> {
  const before = await stuckWorkflowsEnded(suite.stack, cause);
  await run();
  // The replica that terminated counts before it records: by the time the ending is read, it is counted.
  return (await stuckWorkflowsEnded(suite.stack, cause)) - before;
}

scenario(
  'a. a payload bound to the namespace alone signalled into a waiting exchange: the 2026-07-28 retry gets -32603 (payload-undecodable)',
  () => suite.stack,
  suite.run,
  async () => {
    let exchangeId = '';
    let leg: unknown;
    const rise = await counted('payload-undecodable', async () => {
      const ask = await startGreet(apis, newTrace(), suite.stack.keyRing);
      exchangeId = ask.exchangeId;
      await signalNamespaceOnlyAnswer(suite.stack, exchangeId);
      // The caller answers as usual: its answer is signalled behind the refused one, and its leg is
      // told "come back" until the exchange ends.
      const reply = await answerGreet(apis, ask, 'Ada', newTrace(), 60_000);
      leg = reply.body.error ?? reply.body.result;
      await stuckEnding(suite.stack, exchangeId);
    });
    expect({ leg, ending: await stuckEnding(suite.stack, exchangeId), counted: rise }).toEqual({
      leg: endedFor(exchangeId, 'payload-undecodable', 1).postgres.error,
      ending: endedFor(exchangeId, 'payload-undecodable', 1),
      counted: 1,
    });
  },
);

scenario(
  'b. a worker whose workflow code no longer replays a waiting legacy call: its stream gets the -32603 (non-determinism) response',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const changed = await stack.buildWorkflowBundle(require.resolve('./support/changed-workflows'), 'changed.js');
    let exchangeId = '';
    let response: unknown;
    const rise = await counted('non-determinism', async () => {
      const wizard = await startLegacyWizard(stack.apiUrl(0));
      const asked = await nextRequest(wizard);
      exchangeId = await exchangeOfWizard(stack, wizard);
      // A bad deploy: the worker restarts on code that cannot replay what the exchange recorded.
      await stack.stopWorker('SIGTERM');
      await stack.startWorker({ workflowBundle: changed });
      try {
        expect(await respondStep(wizard, asked, 'Ada', 1)).toBe(202);
        response = (await finalReply(wizard, 60_000)).body.error;
        await stuckEnding(stack, exchangeId);
      } finally {
        await wizard.session.close().catch(() => undefined);
        await stack.stopWorker('SIGTERM');
        await stack.startWorker();
      }
    });
    expect({ response, ending: await stuckEnding(stack, exchangeId), counted: rise }).toEqual({
      response: endedFor(exchangeId, 'non-determinism', 1).postgres.error,
      ending: endedFor(exchangeId, 'non-determinism', 1),
      counted: 1,
    });
  },
);

scenario(
  "c. an answer whose round's record is over Temporal's payload limit: tasks/get says failed with -32603 (payload-too-large)",
  () => suite.stack,
  suite.run,
  async () => {
    const client = taskClient(() => suite.stack.apiUrl(1));
    let exchangeId = '';
    let task: Record<string, unknown> = {};
    const rise = await counted('payload-too-large', async () => {
      const taskId = createdTaskId(await client.call('onboarding_wizard'));
      await client.until(taskId, (t) => t.status === 'input_required');
      // The name fits one signal, and the round after it keeps it in the handler's sealed state,
      // which with the ask makes the round's record too large for Temporal: its workflow task fails.
      const name = 'x'.repeat(Math.round(BLOB_LIMIT * 0.76));
      const updated = await client.update(taskId, { profile: accept({ name, email: 'long@example.com' }) });
      expect(updated.body.error ?? 'taken').toBe('taken');
      task = await client.until(taskId, (t) => t.status === 'failed', 60_000);
      exchangeId = await waitFor('the task to name its exchange', async () => {
        const [row] = await suite.stack.query<{ exchange_id: string }>(
          'SELECT exchange_id FROM exchange_tasks WHERE task_id = $1',
          [taskId],
        );
        return row?.exchange_id;
      });
      await stuckEnding(suite.stack, exchangeId);
    });
    expect({ error: task.error, ending: await stuckEnding(suite.stack, exchangeId), counted: rise }).toEqual({
      error: endedFor(exchangeId, 'payload-too-large', 2).postgres.error,
      ending: endedFor(exchangeId, 'payload-too-large', 2),
      counted: 1,
    });
  },
);

/** The calls the anonymous caller's day quota holds now (a day's window: one row). */
async function callsToday(): Promise<number> {
  const [row] = await suite.stack.query<{ calls: number }>(
    'SELECT calls FROM quota_counters WHERE window_s = 86400 AND window_start <= now() AND resets_at > now()',
  );
  return row?.calls ?? 0;
}

scenario(
  "d. an API SIGKILLed after a new call's quota and row were written, before its workflow started: the row ends with -32013 (NOT_FOUND), the call counted once, the client's new call completes",
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const before = await callsToday();
    const since = new Date();
    const rowsSince = () =>
      stack.query<{ id: string; status: string }>(
        "SELECT id, status FROM exchanges WHERE target = 'greet' AND created_at >= $1 ORDER BY created_at",
        [since],
      );
    const reply = await withGatedApi(stack, (api) =>
      api.killWhileHeld({
        // Its workflow start waits at the held gate: the quota and the row are committed, nothing more.
        send: () => rawCall(stack.apiUrl(0), 'tools/call', { name: 'greet', arguments: {} }),
        written: ["the call's row", async () => (await rowsSince()).length === 1],
      }),
    );
    const [orphan] = await rowsSince();
    const countedByTheKilledCall = (await callsToday()) - before;
    // The client got no reply, so it calls again: a new call, counted as one.
    const ask = await startGreet(apis, newTrace(), stack.keyRing);
    const retried = await answerGreet(apis, ask, 'Ada', newTrace(), 60_000);
    const ended = await waitFor('the row without a workflow to end', async () => {
      const [row] = await stack.query<{ status: string; error: unknown }>(
        `SELECT e.status, r.outcome->'error' AS error FROM exchanges e
           JOIN exchange_rounds r ON r.exchange_id = e.id WHERE e.id = $1 AND e.status <> 'running'`,
        [orphan!.id],
      );
      return row;
    });
    const workflow = await stack.withTemporal((client) =>
      client.workflow
        .getHandle(workflowIdFor(orphan!.id))
        .describe()
        .then(
          (described) => described.status.name,
          (error: Error) => error.name,
        ),
    );
    expect({
      reply,
      countedByTheKilledCall,
      countedInAll: (await callsToday()) - before,
      retried: retried.body.result?.content,
      ended,
      workflow,
    }).toEqual({
      reply: NO_REPLY,
      countedByTheKilledCall: 1,
      countedInAll: 2,
      retried: [{ type: 'text', text: 'Hello, Ada!' }],
      ended: {
        status: 'terminated',
        error: {
          code: -32013,
          message: expect.stringContaining('it has no workflow'),
          data: { exchangeId: orphan!.id, workflowStatus: 'NOT_FOUND' },
        },
      },
      workflow: 'WorkflowNotFoundError',
    });
  },
);
