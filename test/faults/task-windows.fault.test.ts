/**
 * The windows of round-windows.fault.test.ts for a task (the Tasks extension): the demo approval
 * `request_access`, whose two approvers answer its one ask with `tasks/update`, each key signalled
 * on its own. Its ask is round 1's, so the window is that of round 1's ask.
 */
import { workflowIdFor } from '../../workflows/messages';
import { accept } from '../support/raw-mcp';
import { createdTaskId, taskClient } from '../support/task-client';
import { signalAccepted } from './support/api-log';
import { expectEnded, expectNoRerunAfterRecording } from './support/expectations';
import { LOCAL_WINDOW_MS, waitForWindow } from './support/fault-window';
import { faultSuite, pausedWorker, scenario } from './support/scenario';
import { answerBeforeResult, answersAndResults, historyCounts } from './support/temporal-probe';

const suite = faultSuite({ sharedWorkflowBundle: true });

const APPROVALS = { owner_approval: accept({ approve: true }), security_approval: accept({ approve: true }) };
const grantedText = (service: string) => `Access to ${service} granted for 4 h.`;

scenario(
  'a. (task) local round 1 recorded its ask, both approvers answered with tasks/update, then the worker SIGKILLed before the workflow task completed: the answers are kept',
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
    await expectNoRerunAfterRecording(stack, [window.exchangeId]);
  },
);
