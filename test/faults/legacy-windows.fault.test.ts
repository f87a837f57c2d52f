/**
 * The windows of round-windows.fault.test.ts for a legacy (2025-11-25) session: there each
 * answer is the client's response to a server-to-client request, POSTed on its own and signalled
 * one key at a time, and every ask reaches the client on the call's stream, written by the worker
 * in the transaction that records the round, so before Temporal knows the round's result.
 */
import { EXCHANGE_CANCELLED } from '../../lib/protocol/exchange-errors';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { admin, TEST_ADMIN_TOKEN } from '../support/admin-client';
import { signalAccepted } from './support/api-log';
import { expectEnded } from './support/expectations';
import { LOCAL_WINDOW_MS, waitForWindow } from './support/fault-window';
import { exchangeOfWizard, finalReply, nextRequest, respondStep, startLegacyWizard } from './support/legacy-wizard';
import { faultSuite, pausedWorker, scenario } from './support/scenario';
import { answerBeforeResult, answersAndResults, historyCounts, roundStillRunning } from './support/temporal-probe';
import { waitFor } from './support/wait-for';
import { wizardCompleted } from './support/wizard-exchange';
import { approvalOf, approvedText, contextAnswers, DEPLOY, DEPLOY_ROUNDS } from './support/deploy-exchange';
import { isRequest, isResponseTo, LegacySession } from '../support/legacy-client';

const suite = faultSuite({ sharedWorkflowBundle: true, apiEnv: { ADMIN_TOKEN: TEST_ADMIN_TOKEN } });

scenario(
  'local-ask window: (legacy era) local round 2 recorded its request, the client responded, then the worker SIGKILLed before the workflow task completed: the response is kept',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const name = 'a-legacy';
    const paused = await pausedWorker(stack, 'activity=runRound,round=2,outcome=ask,target=onboarding_wizard');
    const wizard = await startLegacyWizard(stack.apiUrl(0));
    try {
      expect(await respondStep(wizard, await nextRequest(wizard), name, 1)).toBe(202);
      // Round 2's request reaches the stream while its workflow task is held open; the client responds.
      const second = await nextRequest(wizard);
      const window = await waitForWindow(paused);
      const workflowId = workflowIdFor(window.exchangeId);
      const responded = await respondStep(wizard, second, name, 2);
      await signalAccepted(stack, 'answer signalled', window.exchangeId, 2);
      await stack.stopWorker('SIGKILL');
      const killedAfterMs = Date.now() - window.openedAt;
      const atKill = await historyCounts(stack, workflowId);
      await stack.startWorker();

      expect(await respondStep(wizard, await nextRequest(wizard, 45_000), name, 3)).toBe(202);
      const reply = await finalReply(wizard);
      expect({
        responded,
        window,
        inTime: killedAfterMs < LOCAL_WINDOW_MS,
        resultsAtKill: atKill.localResults,
        answerBeforeItsRound: answerBeforeResult(await answersAndResults(stack, workflowId), 2, 2),
      }).toEqual({
        responded: 202,
        window: expect.objectContaining({ round: 2, local: true, outcome: 'ask' }),
        inTime: true,
        resultsAtKill: 1,
        answerBeforeItsRound: true,
      });
      await expectEnded(stack, window.exchangeId, reply, wizardCompleted(name));
    } finally {
      await wizard.session.close();
    }
  },
);

scenario(
  'local-result window: (legacy era) local final round recorded its result (on the stream; the client responds again), then the worker SIGKILLed before the workflow task completed: the exchange closes completed',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const name = 'b-legacy-result';
    const paused = await pausedWorker(stack, 'activity=runRound,round=4,outcome=complete,target=onboarding_wizard');
    const wizard = await startLegacyWizard(stack.apiUrl(0));
    try {
      expect(await respondStep(wizard, await nextRequest(wizard), name, 1)).toBe(202);
      expect(await respondStep(wizard, await nextRequest(wizard), name, 2)).toBe(202);
      const third = await nextRequest(wizard);
      expect(await respondStep(wizard, third, name, 3)).toBe(202);
      // The final response is written with round 4's record, so it is on the stream in the window.
      const reply = await finalReply(wizard);
      const window = await waitForWindow(paused);
      // A client unsure its response arrived sends it again: taken as a repeat, no second round.
      const again = await respondStep(wizard, third, name, 3);
      await stack.stopWorker('SIGKILL');
      const killedAfterMs = Date.now() - window.openedAt;
      const atKill = await historyCounts(stack, workflowIdFor(window.exchangeId));
      await stack.startWorker();

      expect({ again, window, inTime: killedAfterMs < LOCAL_WINDOW_MS, resultsAtKill: atKill.localResults }).toEqual({
        again: 202,
        window: expect.objectContaining({ round: 4, local: true, outcome: 'complete' }),
        inTime: true,
        resultsAtKill: 3,
      });
      await expectEnded(stack, window.exchangeId, reply, wizardCompleted(name));
    } finally {
      await wizard.session.close();
    }
  },
);

scenario(
  'local-ending window: (legacy era) the ending (an operator cancel) recorded by its local activity, the client responding meanwhile, then the worker SIGKILLed before the workflow task completed: the call ends cancelled',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const name = 'b-legacy-ending';
    const paused = await pausedWorker(stack, 'activity=recordOutcome');
    const wizard = await startLegacyWizard(stack.apiUrl(0));
    try {
      const first = await nextRequest(wizard);
      const exchangeId = await exchangeOfWizard(stack, wizard);
      const cancel = await admin(stack.apiUrl(1), `/exchanges/${exchangeId}/cancel`, { method: 'POST' });
      const window = await waitForWindow(paused);
      const reply = await finalReply(wizard);
      // The response to the withdrawn request arrives after the ending: nothing runs.
      const responded = await respondStep(wizard, first, name, 1);
      await stack.stopWorker('SIGKILL');
      const killedAfterMs = Date.now() - window.openedAt;
      const atKill = await historyCounts(stack, workflowIdFor(exchangeId));
      await stack.startWorker();

      expect({
        cancel: cancel.status,
        responded: responded < 500,
        window,
        inTime: killedAfterMs < LOCAL_WINDOW_MS,
        atKill: [atKill.localResults, atKill.keyAnswerSignals],
      }).toEqual({
        cancel: 200,
        responded: true,
        window: expect.objectContaining({ exchangeId, round: 2, activity: 'recordOutcome', local: true }),
        inTime: true,
        atKill: [1, 0],
      });
      await expectEnded(stack, exchangeId, reply, {
        client: { errorCode: EXCHANGE_CANCELLED },
        status: 'cancelled',
        rounds: [
          [1, 'ask'],
          [2, 'error'],
        ],
      });
    } finally {
      await wizard.session.close();
    }
  },
);

scenario(
  'regular-round window: (legacy era) a response signalled while a regular round (deploy_service) runs, after it sent its request, then the worker SIGKILLed: the retried round finds its record and the response is applied',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const ticket = 'c-legacy-regular';
    const paused = await pausedWorker(stack, 'activity=runRound,round=2,outcome=ask,target=deploy_service');
    const session = await LegacySession.open(stack.apiUrl(0), {
      capabilities: { elicitation: {}, roots: {}, sampling: {} },
    });
    try {
      const { id: callId, stream } = await session.request('tools/call', DEPLOY);
      // Round 1 asks for the roots and a change summary: two requests, each answered on its own.
      for (const method of ['roots/list', 'sampling/createMessage']) {
        const request = await stream.until((m) => isRequest(m, method), `the ${method} request`);
        const result = method === 'roots/list' ? contextAnswers.roots : contextAnswers.summary;
        expect(await session.respond(request.message.id!, result)).toBe(202);
      }
      const approval = await stream.until((m) => isRequest(m, 'elicitation/create'), 'the approval request');
      const window = await waitForWindow(paused);
      const workflowId = workflowIdFor(window.exchangeId);
      const [answer] = Object.values(approvalOf(ticket));
      expect(await session.respond(approval.message.id!, answer as Record<string, unknown>)).toBe(202);
      await signalAccepted(stack, 'answer signalled', window.exchangeId, 2);
      // The live worker takes the signal in a workflow task of its own while the round still runs.
      await waitFor(
        'the response to be in the history',
        async () => (await historyCounts(stack, workflowId)).keyAnswerSignals >= 3,
      );
      const running = await roundStillRunning(stack, workflowId);
      const before = await historyCounts(stack, workflowId);
      await stack.stopWorker('SIGKILL');
      await stack.startWorker();

      expect({ window, results: before.activityResults, running }).toEqual({
        window: expect.objectContaining({ round: 2, local: false, outcome: 'ask' }),
        results: 1,
        running: { activity: true, workflowTask: false },
      });
      const { message } = await stream.until((m) => isResponseTo(m, callId), 'the result of the call', 60_000);
      await expectEnded(
        stack,
        window.exchangeId,
        { body: { result: message.result! } },
        {
          client: { text: approvedText(ticket) },
          status: 'completed',
          rounds: DEPLOY_ROUNDS,
        },
      );
    } finally {
      await session.close();
    }
  },
);

scenario(
  'signal-to-task window: (legacy era) Temporal SIGKILLed after it accepted a response and before any worker ran its workflow task (the worker SIGSTOPped), restarted on its file: the response is kept',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const name = 'd-legacy';
    const wizard = await startLegacyWizard(stack.apiUrl(0));
    try {
      expect(await respondStep(wizard, await nextRequest(wizard), name, 1)).toBe(202);
      const second = await nextRequest(wizard);
      const exchangeId = await exchangeOfWizard(stack, wizard);
      const workflowId = workflowIdFor(exchangeId);
      await waitFor(
        'round 2 to be in the history',
        async () => (await historyCounts(stack, workflowId)).localResults >= 2,
      );
      const worker = stack.worker()!;
      worker.signal('SIGSTOP');
      try {
        expect(await respondStep(wizard, second, name, 2)).toBe(202);
        await signalAccepted(stack, 'answer signalled', exchangeId, 2);
        await stack.killTemporal();
        await stack.startTemporal();
        const restarted = await historyCounts(stack, workflowId);
        expect([restarted.keyAnswerSignals, restarted.localResults]).toEqual([2, 2]);
      } finally {
        worker.signal('SIGCONT');
      }
      expect(await respondStep(wizard, await nextRequest(wizard, 60_000), name, 3)).toBe(202);
      const reply = await finalReply(wizard);
      await expectEnded(stack, exchangeId, reply, wizardCompleted(name));
    } finally {
      await wizard.session.close();
    }
  },
);
