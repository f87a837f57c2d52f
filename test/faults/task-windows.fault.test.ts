/**
 * The windows of round-windows.fault.test.ts for a task (the Tasks extension), answered with
 * `tasks/update`, each key signalled on its own: the onboarding wizard as a task (asks at rounds
 * 1, 2 and 3), and the demo approval `request_access`, whose two approvers answer its one ask.
 */
import { EXCHANGE_CANCELLED } from '../../lib/protocol/exchange-errors';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { accept } from '../support/raw-mcp';
import { createdTaskId, taskClient } from '../support/task-client';
import { signalAccepted } from './support/api-log';
import { expectEnded } from './support/expectations';
import { LOCAL_WINDOW_MS, waitForWindow } from './support/fault-window';
import { NO_REPLY, withGatedApi } from './support/gated-api';
import { faultSuite, pausedWorker, scenario } from './support/scenario';
import { answerBeforeResult, answersAndResults, historyCounts, roundStillRunning } from './support/temporal-probe';
import { waitFor } from './support/wait-for';
import { stepAnswers, wizardCompleted } from './support/wizard-exchange';
import { approvalOf, approvedText, contextAnswers, DEPLOY, DEPLOY_ROUNDS } from './support/deploy-exchange';
import { TASK_CAPABILITIES } from '../support/task-client';

const suite = faultSuite({ sharedWorkflowBundle: true });

const APPROVALS = { owner_approval: accept({ approve: true }), security_approval: accept({ approve: true }) };
const grantedText = (service: string) => `Access to ${service} granted for 4 h.`;
const ACCESS_ROUNDS = [
  [1, 'ask'],
  [2, 'complete'],
] as const;
const ended = (task: Record<string, unknown>) => task.status !== 'working' && task.status !== 'input_required';
/** What the task's client holds, as the expectations read a reply: a cancelled task is the cancel's ending. */
const replyOf = (task: Record<string, unknown>) =>
  task.status === 'cancelled'
    ? { body: { error: { code: EXCHANGE_CANCELLED } } }
    : { body: { result: task.result as Record<string, unknown> } };

const inputKeys = (task: Record<string, unknown>) => Object.keys((task.inputRequests as object | undefined) ?? {});
/** Polls the task until it asks for `key`. */
const asking = (client: ReturnType<typeof taskClient>, taskId: string, key: string, timeoutMs?: number) =>
  client.until(taskId, (task) => task.status === 'input_required' && inputKeys(task).includes(key), timeoutMs);

scenario(
  'local-ask window: (task) local round 2 recorded its ask, the client answered with tasks/update, then the worker SIGKILLed before the workflow task completed: the answer is kept',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const name = 'a-task-wizard';
    const client = taskClient(() => stack.apiUrl(0));
    const paused = await pausedWorker(stack, 'activity=runRound,round=2,outcome=ask,target=onboarding_wizard');
    const taskId = createdTaskId(await client.call('onboarding_wizard'));
    await asking(client, taskId, 'profile');
    expect((await client.update(taskId, stepAnswers(name, 1))).body.error ?? 'ok').toBe('ok');
    // Round 2's ask shows in tasks/get (from its record) while its workflow task is held open.
    await asking(client, taskId, 'team');
    const window = await waitForWindow(paused);
    const workflowId = workflowIdFor(window.exchangeId);
    const updated = await client.update(taskId, stepAnswers(name, 2));
    await signalAccepted(stack, 'task answers signalled', window.exchangeId, 2);
    await stack.stopWorker('SIGKILL');
    const killedAfterMs = Date.now() - window.openedAt;
    const atKill = await historyCounts(stack, workflowId);
    await stack.startWorker();

    await asking(client, taskId, 'confirm', 45_000);
    expect((await client.update(taskId, stepAnswers(name, 3))).body.error ?? 'ok').toBe('ok');
    const done = await client.until(taskId, ended);
    expect({
      updated: updated.body.error ?? 'ok',
      window,
      inTime: killedAfterMs < LOCAL_WINDOW_MS,
      resultsAtKill: atKill.localResults,
      answerBeforeItsRound: answerBeforeResult(await answersAndResults(stack, workflowId), 2, 2),
      status: done.status,
    }).toEqual({
      updated: 'ok',
      window: expect.objectContaining({ round: 2, local: true, outcome: 'ask' }),
      inTime: true,
      resultsAtKill: 1,
      answerBeforeItsRound: true,
      status: 'completed',
    });
    await expectEnded(stack, window.exchangeId, replyOf(done), wizardCompleted(name));
  },
);

scenario(
  'local-ask window: (task) local round 1 recorded its ask, both approvers answered with tasks/update, then the worker SIGKILLed before the workflow task completed: the answers are kept',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const service = 'a-task';
    const client = taskClient(() => stack.apiUrl(0));
    const paused = await pausedWorker(stack, 'activity=runRound,round=1,outcome=ask,target=request_access');
    const taskId = createdTaskId(await client.call('request_access', { service, reason: 'fault window' }));
    const window = await waitForWindow(paused);
    const workflowId = workflowIdFor(window.exchangeId);
    await client.until(taskId, (task) => task.status === 'input_required');
    const updated = await client.update(taskId, APPROVALS);
    await signalAccepted(stack, 'task answers signalled', window.exchangeId, 1);
    await stack.stopWorker('SIGKILL');
    const killedAfterMs = Date.now() - window.openedAt;
    const atKill = await historyCounts(stack, workflowId);
    await stack.startWorker();

    const done = await client.until(
      taskId,
      (task) => task.status !== 'working' && task.status !== 'input_required',
      45_000,
    );
    expect({
      updated: updated.body.error ?? 'ok',
      window,
      inTime: killedAfterMs < LOCAL_WINDOW_MS,
      resultsAtKill: atKill.localResults,
      answersBeforeItsRound: answerBeforeResult(await answersAndResults(stack, workflowId), 2, 1),
      status: done.status,
    }).toEqual({
      updated: 'ok',
      window: expect.objectContaining({ round: 1, local: true, outcome: 'ask' }),
      inTime: true,
      resultsAtKill: 0,
      answersBeforeItsRound: true,
      status: 'completed',
    });
    await expectEnded(
      stack,
      window.exchangeId,
      { body: { result: done.result as Record<string, unknown> } },
      {
        client: { text: grantedText(service) },
        status: 'completed',
        rounds: [
          [1, 'ask'],
          [2, 'complete'],
        ],
      },
    );
  },
);

scenario(
  'local-result window: (task) local final round recorded its result (tasks/get shows it completed), then the worker SIGKILLed before the workflow task completed: the exchange closes completed',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const service = 'b-task';
    const client = taskClient(() => stack.apiUrl(0));
    const paused = await pausedWorker(stack, 'activity=runRound,round=2,outcome=complete,target=request_access');
    const taskId = createdTaskId(await client.call('request_access', { service, reason: 'fault window' }));
    await client.until(taskId, (task) => task.status === 'input_required');
    const updated = await client.update(taskId, APPROVALS);
    const window = await waitForWindow(paused);
    // The client sees the task completed from the record, while Temporal does not know the round.
    const seen = await client.until(taskId, ended);
    await stack.stopWorker('SIGKILL');
    const killedAfterMs = Date.now() - window.openedAt;
    const atKill = await historyCounts(stack, workflowIdFor(window.exchangeId));
    await stack.startWorker();

    expect({
      updated: updated.body.error ?? 'ok',
      window,
      inTime: killedAfterMs < LOCAL_WINDOW_MS,
      resultsAtKill: atKill.localResults,
      seen: seen.status,
    }).toEqual({
      updated: 'ok',
      window: expect.objectContaining({ round: 2, local: true, outcome: 'complete' }),
      inTime: true,
      resultsAtKill: 1,
      seen: 'completed',
    });
    // The task's answer after the restart is the one it gave in the window.
    const done = await client.until(taskId, ended);
    expect(done.result).toEqual(seen.result);
    await expectEnded(stack, window.exchangeId, replyOf(done), {
      client: { text: grantedText(service) },
      status: 'completed',
      rounds: ACCESS_ROUNDS,
    });
  },
);

scenario(
  'local-ending window: (task) the ending (tasks/cancel) recorded by its local activity, the approvers answering meanwhile, then the worker SIGKILLed before the workflow task completed: the task ends cancelled',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const client = taskClient(() => stack.apiUrl(0));
    const paused = await pausedWorker(stack, 'activity=recordOutcome');
    const taskId = createdTaskId(await client.call('request_access', { service: 'b-task-ending', reason: 'cancel' }));
    await client.until(taskId, (task) => task.status === 'input_required');
    const cancelled = await client.cancel(taskId);
    const window = await waitForWindow(paused);
    // The client sees the task cancelled from the record; answers sent now change nothing.
    const seen = await client.until(taskId, ended);
    const updated = await client.update(taskId, APPROVALS);
    await stack.stopWorker('SIGKILL');
    const killedAfterMs = Date.now() - window.openedAt;
    const atKill = await historyCounts(stack, workflowIdFor(window.exchangeId));
    await stack.startWorker();

    expect({
      cancelled: cancelled.body.result?.resultType,
      updated: updated.body.result?.resultType,
      window,
      inTime: killedAfterMs < LOCAL_WINDOW_MS,
      atKill: [atKill.localResults, atKill.keyAnswerSignals],
      seen: seen.status,
    }).toEqual({
      cancelled: 'complete',
      updated: 'complete',
      window: expect.objectContaining({ round: 2, activity: 'recordOutcome', local: true }),
      inTime: true,
      atKill: [1, 0],
      seen: 'cancelled',
    });
    const done = await client.until(taskId, ended);
    await expectEnded(stack, window.exchangeId, replyOf(done), {
      client: { errorCode: EXCHANGE_CANCELLED },
      status: 'cancelled',
      rounds: [
        [1, 'ask'],
        [2, 'error'],
      ],
    });
  },
);

scenario(
  'regular-round window: (task) an answer taken with tasks/update while a regular round (deploy_service) runs, after it recorded its ask, then the worker SIGKILLed: the retried round finds its record and the answer is applied',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const ticket = 'c-task-regular';
    const client = taskClient(() => stack.apiUrl(0), {}, { ...TASK_CAPABILITIES, roots: {}, sampling: {} });
    const paused = await pausedWorker(stack, 'activity=runRound,round=2,outcome=ask,target=deploy_service');
    const taskId = createdTaskId(await client.call(DEPLOY.name, DEPLOY.arguments));
    await asking(client, taskId, 'roots');
    expect((await client.update(taskId, contextAnswers)).body.error ?? 'ok').toBe('ok');
    await asking(client, taskId, 'approval');
    const window = await waitForWindow(paused);
    const workflowId = workflowIdFor(window.exchangeId);
    expect((await client.update(taskId, approvalOf(ticket))).body.error ?? 'ok').toBe('ok');
    await signalAccepted(stack, 'task answers signalled', window.exchangeId, 2);
    // The live worker takes the signal in a workflow task of its own while the round still runs.
    const running = await roundStillRunning(stack, workflowId);
    const before = await historyCounts(stack, workflowId);
    await stack.stopWorker('SIGKILL');
    await stack.startWorker();

    expect({ window, answers: before.keyAnswerSignals, results: before.activityResults, running }).toEqual({
      window: expect.objectContaining({ round: 2, local: false, outcome: 'ask' }),
      answers: 3,
      results: 1,
      running: { activity: true, workflowTask: false },
    });
    const done = await client.until(taskId, ended, 60_000);
    await expectEnded(stack, window.exchangeId, replyOf(done), {
      client: { text: approvedText(ticket) },
      status: 'completed',
      rounds: DEPLOY_ROUNDS,
    });
  },
);

scenario(
  'signal-to-task window: (task) Temporal SIGKILLed after it accepted a tasks/update and before any worker ran its workflow task (the worker SIGSTOPped), restarted on its file: the answers are kept',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const service = 'd-task';
    const client = taskClient(() => stack.apiUrl(0));
    const taskId = createdTaskId(await client.call('request_access', { service, reason: 'Temporal restart' }));
    await client.until(taskId, (task) => task.status === 'input_required');
    const exchangeId = await exchangeOfTask(taskId);
    const workflowId = workflowIdFor(exchangeId);
    await waitFor(
      'round 1 to be in the history',
      async () => (await historyCounts(stack, workflowId)).localResults >= 1,
    );
    const worker = stack.worker()!;
    worker.signal('SIGSTOP');
    try {
      expect((await client.update(taskId, APPROVALS)).body.error ?? 'ok').toBe('ok');
      await signalAccepted(stack, 'task answers signalled', exchangeId, 1);
      await stack.killTemporal();
      await stack.startTemporal();
      // Not yet run: round 2 is not in the history. The first key's signal is; the second may
      // still be buffered behind the workflow task Temporal handed the stopped worker.
      const restarted = await historyCounts(stack, workflowId);
      expect({ roundsRun: restarted.localResults, answersInHistory: restarted.keyAnswerSignals >= 1 }).toEqual({
        roundsRun: 1,
        answersInHistory: true,
      });
    } finally {
      worker.signal('SIGCONT');
    }
    const done = await client.until(taskId, ended, 60_000);
    await expectEnded(stack, exchangeId, replyOf(done), {
      client: { text: grantedText(service) },
      status: 'completed',
      rounds: ACCESS_ROUNDS,
    });
  },
);

scenario(
  'claim-to-signal window: (task) tasks/update claimed its keys in Postgres, then the API SIGKILLed before Temporal took their signals (its connection to Temporal held shut): the client retries and each answer is applied once',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const service = 'e-task';
    await withGatedApi(stack, async (api) => {
      const client = taskClient(() => stack.apiUrl(0));
      const taskId = createdTaskId(await client.call('request_access', { service, reason: 'claim window' }));
      await client.until(taskId, (task) => task.status === 'input_required');
      const exchangeId = await exchangeOfTask(taskId);
      const workflowId = workflowIdFor(exchangeId);

      // Both keys claimed and committed; their signals are on their way to a Temporal that never gets them.
      const { reply, atKill } = await api.claimThenKill({
        workflowId,
        send: async () => (await client.update(taskId, APPROVALS)).body,
        claimed: ['the update to claim both keys', async () => (await claimedKeys(exchangeId)).length === 2],
      });

      // The client got no answer, so it sends the same update again.
      const retried = await client.update(taskId, APPROVALS);
      const done = await client.until(taskId, ended, 45_000);
      const final = await historyCounts(stack, workflowId);
      expect({
        firstReply: reply,
        claimedAtKill: (await claimedKeys(exchangeId)).sort(),
        signalsAtKill: atKill.keyAnswerSignals,
        retried: retried.body.error ?? 'ok',
        status: done.status,
        // Each key reached the workflow once: by the retry, since the first update's never left the gate.
        signalsAtEnd: final.keyAnswerSignals,
      }).toEqual({
        firstReply: NO_REPLY,
        claimedAtKill: Object.keys(APPROVALS).sort(),
        signalsAtKill: 0,
        retried: 'ok',
        status: 'completed',
        signalsAtEnd: 2,
      });
      await expectEnded(stack, exchangeId, replyOf(done), {
        client: { text: grantedText(service) },
        status: 'completed',
        rounds: ACCESS_ROUNDS,
      });
    });
  },
);

/** The keys of the exchange's task that tasks/update claimed (recorded as answered), any round. */
async function claimedKeys(exchangeId: string): Promise<string[]> {
  const rows = await suite.stack.query<{ key: string }>(
    'SELECT key FROM exchange_task_answers WHERE exchange_id = $1',
    [exchangeId],
  );
  return rows.map((row) => row.key);
}

/** The exchange behind a task. */
async function exchangeOfTask(taskId: string): Promise<string> {
  const rows = await suite.stack.query<{ exchange_id: string }>(
    'SELECT exchange_id FROM exchange_tasks WHERE task_id = $1',
    [taskId],
  );
  if (!rows[0]) throw new Error(`no task ${taskId} in Postgres`);
  return rows[0].exchange_id;
}
