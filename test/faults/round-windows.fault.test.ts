/**
 * The windows a fast path opens, for 2026-07-28 clients, each held open on purpose (a paused
 * fault worker, support/fault-pause.ts, or a stopped one), not hit by timing. A round run as a
 * local activity records its outcome in Postgres (so the client sees it) inside the workflow task
 * that runs it, before Temporal knows the round's result; a regular round does the same inside its
 * activity; a signal Temporal took waits for a workflow task. A process dies there, and whatever
 * the client sent meanwhile must land exactly once. Each scenario checks that the history really
 * was in the window when it died, then that the exchange ends with the client's own answers, that
 * no recorded round ran its handler again, and that the client, Postgres and Temporal's search
 * attributes agree. Each held round is a first start the workflow vouched for (it neither looked
 * for its record nor counted its start): the retry after the kill is what must look.
 */
import { EXCHANGE_CANCELLED } from '../../lib/protocol/exchange-errors';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { admin, TEST_ADMIN_TOKEN } from '../support/admin-client';
import { signalAccepted } from './support/api-log';
import {
  approvalOf,
  approvedText,
  contextAnswers,
  DEPLOY,
  DEPLOY_ROUNDS,
  deployApis,
  deployParams,
} from './support/deploy-exchange';
import { expectEnded } from './support/expectations';
import { LOCAL_WINDOW_MS, waitForWindow } from './support/fault-window';
import { askOf, newTrace, pollPastStateOnly, sendLeg, startCall } from './support/modern-exchange';
import { faultSuite, pausedWorker, scenario } from './support/scenario';
import { waitFor } from './support/wait-for';
import { answerBeforeResult, answersAndResults, historyCounts, roundStillRunning } from './support/temporal-probe';
import { answerStep, nextAsk, startWizard, stepParams, WIZARD, wizardCompleted } from './support/wizard-exchange';

const suite = faultSuite({ sharedWorkflowBundle: true, apiEnv: { ADMIN_TOKEN: TEST_ADMIN_TOKEN } });
const apis = { urls: () => suite.stack.apiUrls() };

scenario(
  'local-ask window: local round 2 recorded its ask, its answer accepted, then the worker SIGKILLed before the workflow task completed: the answer is kept',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const trace = newTrace();
    const name = 'a-local-ask';
    const paused = await pausedWorker(stack, 'activity=runRound,round=2,outcome=ask,target=onboarding_wizard');
    const first = await startWizard(apis, trace, stack.keyRing);
    const workflowId = workflowIdFor(first.exchangeId);
    // Round 2's ask reaches the client while its workflow task is held open; the client answers it.
    const second = await nextAsk(apis, first, name, 1, trace, stack.keyRing);
    const window = await waitForWindow(paused);
    const params = stepParams(second, name, 2);
    const answering = sendLeg(apis, params, trace);
    await signalAccepted(stack, 'answers signalled', first.exchangeId, 2);
    await stack.stopWorker('SIGKILL');
    const killedAfterMs = Date.now() - window.openedAt;
    // With no worker, nothing can add to what Temporal knows: round 1's result, not round 2's.
    const atKill = await historyCounts(stack, workflowId);
    await stack.startWorker();

    const third = askOf(
      await pollPastStateOnly(apis, params, await answering, trace, 45_000),
      stack.keyRing,
      WIZARD,
      "step 2's answer",
    );
    const reply = await answerStep(apis, third, name, 3, trace);
    // It was the window: round 2's answers reached the history before round 2's result.
    expect({
      window,
      inTime: killedAfterMs < LOCAL_WINDOW_MS,
      resultsAtKill: atKill.localResults,
      answerBeforeItsRound: answerBeforeResult(await answersAndResults(stack, workflowId), 2, 2),
    }).toEqual({
      window: expect.objectContaining({
        exchangeId: first.exchangeId,
        round: 2,
        local: true,
        outcome: 'ask',
        firstStart: true,
      }),
      inTime: true,
      resultsAtKill: 1,
      answerBeforeItsRound: true,
    });
    await expectEnded(stack, first.exchangeId, reply, wizardCompleted(name));
  },
);

scenario(
  'local-result window: local final round recorded its result (the client has it and retries), then the worker SIGKILLed before the workflow task completed: the exchange closes completed',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const trace = newTrace();
    const name = 'b-local-result';
    const paused = await pausedWorker(stack, 'activity=runRound,round=4,outcome=complete,target=onboarding_wizard');
    const first = await startWizard(apis, trace, stack.keyRing);
    const second = await nextAsk(apis, first, name, 1, trace, stack.keyRing);
    const third = await nextAsk(apis, second, name, 2, trace, stack.keyRing);
    const params = stepParams(third, name, 3);
    const reply = await pollPastStateOnly(apis, params, await sendLeg(apis, params, trace), trace, 30_000);
    const window = await waitForWindow(paused);
    // A client that lost that reply sends the same leg again: the same result, not a second round.
    const again = await sendLeg(apis, params, trace);
    await stack.stopWorker('SIGKILL');
    const killedAfterMs = Date.now() - window.openedAt;
    const atKill = await historyCounts(stack, workflowIdFor(first.exchangeId));
    await stack.startWorker();

    expect({ window, inTime: killedAfterMs < LOCAL_WINDOW_MS, resultsAtKill: atKill.localResults }).toEqual({
      window: expect.objectContaining({
        exchangeId: first.exchangeId,
        round: 4,
        local: true,
        outcome: 'complete',
        firstStart: true,
      }),
      inTime: true,
      resultsAtKill: 3,
    });
    expect(again.body.result).toEqual(reply.body.result);
    await expectEnded(stack, first.exchangeId, reply, wizardCompleted(name));
  },
);

scenario(
  'local-ending window: the ending (an operator cancel) recorded by its local activity, the client answering meanwhile, then the worker SIGKILLed before the workflow task completed: the exchange closes cancelled',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const trace = newTrace();
    const name = 'b-local-ending';
    const paused = await pausedWorker(stack, 'activity=recordOutcome');
    const first = await startWizard(apis, trace, stack.keyRing);
    const cancel = await admin(stack.apiUrl(0), `/exchanges/${first.exchangeId}/cancel`, { method: 'POST' });
    const window = await waitForWindow(paused);
    // The client's answer arrives after the ending is recorded: it gets the ending, nothing runs.
    const params = stepParams(first, name, 1);
    const reply = await pollPastStateOnly(apis, params, await sendLeg(apis, params, trace), trace, 30_000);
    await stack.stopWorker('SIGKILL');
    const killedAfterMs = Date.now() - window.openedAt;
    const atKill = await historyCounts(stack, workflowIdFor(first.exchangeId));
    await stack.startWorker();

    expect({
      cancel: cancel.status,
      window,
      inTime: killedAfterMs < LOCAL_WINDOW_MS,
      atKill: [atKill.localResults, atKill.answerSignals],
    }).toEqual({
      cancel: 200,
      window: expect.objectContaining({
        exchangeId: first.exchangeId,
        round: 2,
        activity: 'recordOutcome',
        local: true,
      }),
      inTime: true,
      atKill: [1, 0],
    });
    await expectEnded(stack, first.exchangeId, reply, {
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
  'regular-round window: answers signalled while a regular round (deploy_service) runs, after it recorded its ask, then the worker SIGKILLed: the retried round finds its record and the answers are applied',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const trace = newTrace();
    const ticket = 'c-regular';
    const deploy = deployApis(() => stack.apiUrls());
    const paused = await pausedWorker(stack, 'activity=runRound,round=2,outcome=ask,target=deploy_service');
    const first = await startCall(deploy, DEPLOY, trace, stack.keyRing);
    const workflowId = workflowIdFor(first.exchangeId);
    const toContext = deployParams(first, contextAnswers);
    const second = askOf(
      await pollPastStateOnly(deploy, toContext, await sendLeg(deploy, toContext, trace), trace, 30_000),
      stack.keyRing,
      DEPLOY,
      'the context answers',
    );
    const window = await waitForWindow(paused);
    const params = deployParams(second, approvalOf(ticket));
    const answering = sendLeg(deploy, params, trace);
    await signalAccepted(stack, 'answers signalled', first.exchangeId, 2);
    // The live worker takes the signal in a workflow task of its own while the round still runs.
    const running = await roundStillRunning(stack, workflowId);
    const before = await historyCounts(stack, workflowId);
    await stack.stopWorker('SIGKILL');
    await stack.startWorker();

    expect({ window, answers: before.answerSignals, results: before.activityResults, running }).toEqual({
      window: expect.objectContaining({
        exchangeId: first.exchangeId,
        round: 2,
        local: false,
        outcome: 'ask',
        firstStart: true,
      }),
      answers: 2,
      results: 1,
      running: { activity: true, workflowTask: false },
    });
    const reply = await pollPastStateOnly(deploy, params, await answering, trace, 60_000);
    await expectEnded(stack, first.exchangeId, reply, {
      client: { text: approvedText(ticket) },
      status: 'completed',
      rounds: DEPLOY_ROUNDS,
    });
  },
);

scenario(
  'signal-to-task window: Temporal SIGKILLed after it accepted an answer and before any worker ran its workflow task (the worker SIGSTOPped), restarted on its file: the answer is kept',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const trace = newTrace();
    const name = 'd-temporal';
    const first = await startWizard(apis, trace, stack.keyRing);
    const workflowId = workflowIdFor(first.exchangeId);
    const second = await nextAsk(apis, first, name, 1, trace, stack.keyRing);
    // The worker is stopped once Temporal has round 2's result (else this is scenario a's window).
    await waitFor(
      'round 2 to be in the history',
      async () => (await historyCounts(stack, workflowId)).localResults >= 2,
    );
    const worker = stack.worker()!;
    worker.signal('SIGSTOP');
    const params = stepParams(second, name, 2);
    const answering = sendLeg(apis, params, trace);
    try {
      await signalAccepted(stack, 'answers signalled', first.exchangeId, 2);
      await stack.killTemporal();
      await stack.startTemporal();
      // Durable, and not yet run: the answer is in the history, round 3 is not.
      const restarted = await historyCounts(stack, workflowId);
      expect([restarted.answerSignals, restarted.localResults]).toEqual([2, 2]);
    } finally {
      worker.signal('SIGCONT');
    }
    const third = askOf(
      await pollPastStateOnly(apis, params, await answering, trace, 60_000),
      stack.keyRing,
      WIZARD,
      "step 2's answer",
    );
    const reply = await answerStep(apis, third, name, 3, trace);
    await expectEnded(stack, first.exchangeId, reply, wizardCompleted(name));
  },
);
