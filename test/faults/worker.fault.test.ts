/**
 * The worker process dies (SIGKILL), stops (SIGTERM) or is absent while exchanges wait for
 * answers and while their rounds run. Temporal holds every signal and every round; a worker that
 * comes back finishes them, and no handler runs again for a round that was recorded.
 */
import { expectAllGreeted, expectNoRerunAfterRecording } from './support/expectations';
import { answerAll, apisFor, greeted, namesFor, startAll } from './support/greet-fleet';
import { answerParams, isStateOnly, newTrace, pollPastStateOnly, sendLeg, type Ask } from './support/modern-exchange';
import { roundEvents } from './support/round-log';
import { faultSuite, roundsRecordedSince, scenario } from './support/scenario';
import { exchangesWithStartedRound } from './support/temporal-probe';
import { waitFor } from './support/wait-for';

const suite = faultSuite();

scenario(
  'a. worker SIGKILLed while exchanges wait for answers, restarted: every answer completes',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const names = namesFor('a', 6);
    const asks = await startAll(suite.stack, names.length, trace);
    await suite.stack.stopWorker('SIGKILL');
    await suite.stack.startWorker();
    const replies = await answerAll(suite.stack, asks, names, trace);
    await expectAllGreeted(suite.stack, greeted(asks, names, replies));
    await expectNoRerunAfterRecording(
      suite.stack,
      asks.map((a) => a.exchangeId),
    );
  },
);

scenario(
  'b. worker SIGKILLed while rounds run, restarted: every exchange reaches its ask, a killed round is retried within seconds',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const count = 24;
    // All first legs at once; the kill lands while the worker is in the middle of them: the first
    // ask is recorded and others are not yet. A kill that lands where no round runs (the worker
    // recorded the whole burst already, or a loaded machine has not started the next rounds yet)
    // leaves nothing to test: that burst is finished and another one sent (at most three), rather
    // than failing on the machine's timing.
    let burst: { starting: Promise<Ask[]>; interrupted: string[]; recordedAtKill: number } | undefined;
    const recordedBeforeTheKill: Ask[][] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const since = new Date();
      const starting = startAll(suite.stack, count, trace, 300_000);
      await waitFor(
        'the first round of this burst to be recorded',
        async () => (await roundsRecordedSince(suite.stack, since, 1)) >= 1,
        { timeoutMs: 60_000, intervalMs: 20 },
      );
      await suite.stack.stopWorker('SIGKILL');
      const interrupted = await exchangesWithStartedRound(suite.stack);
      burst = { starting, interrupted, recordedAtKill: await roundsRecordedSince(suite.stack, since, 1) };
      if (burst.recordedAtKill < count && burst.interrupted.length > 0) break;
      await suite.stack.startWorker();
      recordedBeforeTheKill.push(await starting);
    }
    // Checked once the worker is back, so that a failure here leaves the stack whole for the scenarios after it.
    await suite.stack.startWorker();
    const restarted = Date.now();
    const { starting, interrupted, recordedAtKill } = burst!;
    expect({ roundsRunningOnTheKilledWorker: interrupted.length > 0, recordedAtKill: recordedAtKill < count }).toEqual({
      roundsRunningOnTheKilledWorker: true,
      recordedAtKill: true,
    });
    const asks = await starting;
    const tookMs = Date.now() - restarted;
    expect(asks.map((ask) => Object.keys(ask.inputRequests))).toEqual(asks.map(() => ['name']));
    // A round runs as a local activity: Temporal notices one that died with its worker when its
    // workflow task times out (10 s), as it would a regular round's heartbeat timeout, and not
    // after a 3-minute start-to-close timeout.
    expect({
      interruptedRounds: interrupted.length,
      allAsksArrivedAfterRestartIn: tookMs < 30_000 ? 'under 30 s' : `${tookMs} ms`,
    }).toEqual({
      interruptedRounds: interrupted.length,
      allAsksArrivedAfterRestartIn: 'under 30 s',
    });

    const names = namesFor('b', count);
    const replies = await answerAll(suite.stack, asks, names, trace);
    await expectAllGreeted(suite.stack, greeted(asks, names, replies));
    await expectNoRerunAfterRecording(
      suite.stack,
      asks.map((a) => a.exchangeId),
    );
    // The bursts the kill came too late for end too, so that no exchange of this scenario is left waiting.
    for (const earlier of recordedBeforeTheKill)
      await expectAllGreeted(suite.stack, greeted(earlier, names, await answerAll(suite.stack, earlier, names, trace)));
  },
  330_000,
);

scenario(
  'c. answers sent while no worker runs are durable: legs get state-only results, a started worker completes all',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const names = namesFor('c', 6);
    const asks = await startAll(suite.stack, names.length, trace);
    await suite.stack.stopWorker('SIGTERM');
    const firsts = await Promise.all(
      asks.map((ask, i) => sendLeg(apisFor(suite.stack, i), answerParams(ask, names[i]!), trace)),
    );
    expect(firsts.map(isStateOnly)).toEqual(firsts.map(() => true));
    // Clients keep coming back while the worker is started.
    const finishing = Promise.all(
      asks.map((ask, i) =>
        pollPastStateOnly(apisFor(suite.stack, i), answerParams(ask, names[i]!), firsts[i]!, trace, 120_000),
      ),
    );
    await suite.stack.startWorker();
    const replies = await finishing;
    await expectAllGreeted(suite.stack, greeted(asks, names, replies));
    await expectNoRerunAfterRecording(
      suite.stack,
      asks.map((a) => a.exchangeId),
    );
  },
);

scenario(
  'j. worker SIGTERMed under load: its in-flight rounds finish within the grace time, a new worker continues, all complete',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const names = namesFor('j-worker', 16);
    const asks = await startAll(suite.stack, names.length, trace);
    const since = new Date();
    const answering = answerAll(suite.stack, asks, names, trace);
    await waitFor(
      'the first answered round of this burst to be recorded',
      async () => (await roundsRecordedSince(suite.stack, since, 2)) >= 1,
      { timeoutMs: 60_000, intervalMs: 20 },
    );
    const old = suite.stack.worker()!;
    const stoppedAt = Date.now();
    const stopping = suite.stack.stopWorker('SIGTERM').then((how) => ({ how, afterMs: Date.now() - stoppedAt }));
    await suite.stack.startWorker();
    const replies = await answering;
    // The old worker exits by itself, cleanly, within its grace (WORKER_SHUTDOWN_GRACE_MS, 10 s).
    const { how, afterMs } = await stopping;
    expect(how).toBe('worker exited (code 0, signal null)');
    expect(afterMs).toBeLessThan(10_000);
    await expectAllGreeted(suite.stack, greeted(asks, names, replies));
    // Every round the stopped worker started, it recorded (a round abandoned to a retry would not be).
    const mine = roundEvents([old.logFile]);
    const key = (e: { exchangeId: string; round: number }) => `${e.exchangeId}#${e.round}`;
    const recordedByOld = new Set(mine.filter((e) => e.msg === 'round recorded').map(key));
    expect(mine.filter((e) => e.msg === 'round started' && !recordedByOld.has(key(e))).map(key)).toEqual([]);
    await expectNoRerunAfterRecording(
      suite.stack,
      asks.map((a) => a.exchangeId),
    );
  },
);
