/**
 * The operator's "a pod died during a deploy": twenty onboarding wizards (three asks each) are
 * being answered, as fast as their clients can, while the ordinary worker is SIGKILLed and a new
 * one started. Every wizard must finish with its own client's answers, every run: the answers a
 * round-2 ask received while its workflow task died with the worker are the ones issue-style
 * loss drops. The kill lands once a few round-2 asks are recorded, while the rest of them run and
 * the first answers to them arrive; it is the realistic event, run five times, where the window
 * scenarios (round-windows and the others) hold each window open on purpose.
 */
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { expectAllEnded } from './support/expectations';
import { apisFor, namesFor } from './support/greet-fleet';
import { newTrace } from './support/modern-exchange';
import { faultSuite, roundsRecordedSince, scenario } from './support/scenario';
import { answerBeforeResult, answersAndResults } from './support/temporal-probe';
import { waitFor } from './support/wait-for';
import { type Exchanged, runWizard, wizardCompleted } from './support/wizard-exchange';

const RUNS = 5;
const EXCHANGES = 20;
/** Round-2 asks recorded before the kill: some of the burst past its window, most of it inside or before. */
const RECORDED_AT_KILL = 3;

/** How long a client follows one leg: a restart costs about 20 s here (the killed task's 10 s timeout, a worker start). */
const CLIENT_PATIENCE_MS = 60_000;

const suite = faultSuite({ sharedWorkflowBundle: true });

for (let run = 1; run <= RUNS; run++) {
  scenario(
    `burst ${run} of ${RUNS}: ${EXCHANGES} wizards answered while the worker is SIGKILLed and restarted: all complete with their own answers`,
    () => suite.stack,
    suite.run,
    async () => {
      const { stack } = suite;
      const trace = newTrace();
      const names = namesFor(`f${run}`, EXCHANGES);
      const since = new Date();
      const clients = Promise.allSettled(
        names.map((name, i) => runWizard(apisFor(stack, i), name, trace, stack.keyRing, CLIENT_PATIENCE_MS)),
      );
      await waitFor(
        `${RECORDED_AT_KILL} round-2 asks of this burst to be recorded`,
        async () => (await roundsRecordedSince(stack, since, 2)) >= RECORDED_AT_KILL,
        { timeoutMs: 60_000, intervalMs: 10 },
      );
      await stack.stopWorker('SIGKILL');
      await stack.startWorker();

      const settled = await clients;
      const failed = settled.flatMap((s, i) => (s.status === 'rejected' ? [`${names[i]}: ${String(s.reason)}`] : []));
      expect(failed).toEqual([]);
      const done = settled.map((s) => (s as PromiseFulfilledResult<Exchanged>).value);
      await expectAllEnded(
        stack,
        done.map(({ exchangeId, name, reply }) => ({
          exchangeId,
          reply,
          expected: wizardCompleted(name),
        })),
      );
      // How many of them the kill caught in the local-ask window (their round-2 answers in the
      // history before round 2's result): reported, not required, since this is the realistic event.
      let caught = 0;
      for (const { exchangeId } of done)
        if (answerBeforeResult(await answersAndResults(stack, workflowIdFor(exchangeId)), 2, 2)) caught += 1;
      process.stderr.write(`burst ${run}: ${caught} of ${EXCHANGES} answered inside the local-ask window\n`);
    },
  );
}
