/**
 * The windows of round-windows.fault.test.ts for a handshake-era (2025-11-25) session: there each
 * answer is the client's response to a server-to-client request, POSTed on its own and signalled
 * one key at a time, and every ask reaches the client on the call's stream, written by the worker
 * in the transaction that records the round, so before Temporal knows the round's result.
 */
import { workflowIdFor } from '../../workflows/messages';
import { signalAccepted } from './support/api-log';
import { expectEnded, expectNoRerunAfterRecording } from './support/expectations';
import { LOCAL_WINDOW_MS, waitForWindow } from './support/fault-window';
import { finalReply, nextRequest, respondStep, startLegacyWizard } from './support/legacy-wizard';
import { faultSuite, scenario } from './support/scenario';
import { answerBeforeResult, answersAndResults, historyCounts } from './support/temporal-probe';
import { WIZARD_ROUNDS, welcomeText } from './support/wizard-exchange';

const suite = faultSuite({ sharedWorkflowBundle: true });

async function pausedWorker(pause: string) {
  await suite.stack.stopWorker('SIGTERM');
  return suite.stack.startWorker({ pause });
}

scenario(
  'a. (handshake era) local round 2 recorded its request, the client responded, then the worker SIGKILLed before the workflow task completed: the response is kept',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const name = 'a-legacy';
    const paused = await pausedWorker('activity=runRound,round=2,outcome=ask,target=onboarding_wizard');
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
      await expectEnded(stack, window.exchangeId, reply, {
        client: { text: welcomeText(name) },
        status: 'completed',
        rounds: WIZARD_ROUNDS,
      });
      await expectNoRerunAfterRecording(stack, [window.exchangeId]);
    } finally {
      await wizard.session.close();
    }
  },
);
