/**
 * The windows a fast round opens, each held open on purpose by a paused fault worker
 * (support/fault-pause.ts), not hit by timing: a round that runs as a local activity records its
 * outcome in Postgres (so the client sees it) inside the workflow task that runs it, before
 * Temporal knows the round's result. The worker dies there, and whatever the client sends
 * meanwhile must land exactly once. Each scenario checks that the history really was in the window
 * when the worker died (the answers in it, the round's result not), then that the exchange ends
 * with the client's own answers, that no recorded round ran its handler again, and that the
 * client, Postgres and Temporal's search attributes agree.
 */
import { workflowIdFor } from '../../workflows/messages';
import { expectEnded, expectNoRerunAfterRecording } from './support/expectations';
import { LOCAL_WINDOW_MS, waitForWindow } from './support/fault-window';
import { askOf, newTrace, pollPastStateOnly, sendLeg } from './support/modern-exchange';
import { faultSuite, scenario } from './support/scenario';
import { signalAccepted } from './support/api-log';
import { historyCounts } from './support/temporal-probe';
import { waitFor } from './support/wait-for';
import {
  nextAsk,
  startWizard,
  stepParams,
  WIZARD,
  WIZARD_ROUNDS,
  welcomeText,
  answerStep,
} from './support/wizard-exchange';

const suite = faultSuite({ sharedWorkflowBundle: true });
const apis = { urls: () => suite.stack.apiUrls() };

/** Replaces the running worker with one that holds the first activity matching `pause` open. */
async function pausedWorker(pause: string) {
  await suite.stack.stopWorker('SIGTERM');
  return suite.stack.startWorker({ pause });
}

/**
 * The exchange's history once Temporal has settled the workflow task the killed worker held (it
 * flushes the signals it buffered behind that task into the history when the task times out).
 */
const settledHistory = (exchangeId: string, answerSignals: number) =>
  waitFor(
    `the history to hold ${answerSignals} answers signals`,
    async () => {
      const counts = await historyCounts(suite.stack, workflowIdFor(exchangeId));
      return counts.answerSignals >= answerSignals && counts;
    },
    { timeoutMs: 30_000, intervalMs: 250 },
  );

scenario(
  'a. local round 2 recorded its ask, its answer accepted, then the worker SIGKILLed before the workflow task completed: the answer is kept',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const trace = newTrace();
    const name = 'a-local-ask';
    const paused = await pausedWorker('activity=runRound,round=2,outcome=ask,target=onboarding_wizard');
    const first = await startWizard(apis, trace, stack.keyRing);
    // Round 2's ask reaches the client while its workflow task is held open.
    const second = await nextAsk(apis, first, name, 1, trace, stack.keyRing);
    const window = await waitForWindow(paused);
    const answering = sendLeg(apis, stepParams(second, name, 2), trace);
    await signalAccepted(stack, 'answers signalled', first.exchangeId, 2);
    await stack.stopWorker('SIGKILL');
    const killedAfterMs = Date.now() - window.openedAt;
    await stack.startWorker();
    // It was the window: Temporal took round 2's answers and has only round 1's result.
    const { answerSignals, localResults } = await settledHistory(first.exchangeId, 2);
    expect({ window, inTime: killedAfterMs < LOCAL_WINDOW_MS, answerSignals, localResults }).toEqual({
      window: expect.objectContaining({ exchangeId: first.exchangeId, round: 2, local: true, outcome: 'ask' }),
      inTime: true,
      answerSignals: 2,
      localResults: 1,
    });

    const params = stepParams(second, name, 2);
    const third = askOf(
      await pollPastStateOnly(apis, params, await answering, trace, 45_000),
      stack.keyRing,
      WIZARD,
      "step 2's answer",
    );
    const reply = await answerStep(apis, third, name, 3, trace);
    await expectEnded(stack, first.exchangeId, reply, {
      client: { text: welcomeText(name) },
      status: 'completed',
      rounds: WIZARD_ROUNDS,
    });
    await expectNoRerunAfterRecording(stack, [first.exchangeId]);
  },
);
