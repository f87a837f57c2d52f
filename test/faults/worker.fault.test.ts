/**
 * The worker process dies (SIGKILL), stops (SIGTERM) or is absent while exchanges wait for
 * answers and while their rounds run. Temporal holds every signal and every round; a worker that
 * comes back finishes them, and no handler runs again for a round that was recorded.
 */
import { expectAllGreeted, expectNoRerunAfterRecording } from './support/expectations';
import { startFaultStack, type FaultStack } from './support/fault-stack';
import { answerAll, apisFor, greeted, namesFor, startAll } from './support/greet-fleet';
import { answerParams, isStateOnly, newTrace, pollPastStateOnly, sendLeg } from './support/modern-exchange';
import { roundEvents } from './support/round-log';
import { scenario, type ScenarioRun } from './support/scenario';
import { exchangesWithStartedRound } from './support/temporal-probe';
import { waitFor } from './support/wait-for';

let stack: FaultStack;
const run: ScenarioRun = { failed: false };
beforeAll(async () => {
  stack = await startFaultStack();
}, 300_000);
afterAll(async () => stack?.close(run.failed));

/** Rounds `round` recorded since `since` (the test's clock; Postgres runs on this machine). */
async function recordedSince(since: Date, round: number): Promise<number> {
  const rows = await stack.query<{ n: string }>('SELECT count(*) AS n FROM exchange_rounds WHERE round = $1 AND recorded_at >= $2', [round, since]);
  return Number(rows[0]!.n);
}

scenario('a. worker SIGKILLed while exchanges wait for answers, restarted: every answer completes', () => stack, run, async () => {
  const trace = newTrace();
  const names = namesFor('a', 6);
  const asks = await startAll(stack, names.length, trace);
  await stack.stopWorker('SIGKILL');
  await stack.startWorker();
  const replies = await answerAll(stack, asks, names, trace);
  await expectAllGreeted(stack, greeted(asks, names, replies));
  await expectNoRerunAfterRecording(stack, asks.map((a) => a.exchangeId));
});

scenario(
  'b. worker SIGKILLed while rounds run, restarted: every exchange reaches its ask, a killed round is retried within seconds',
  () => stack,
  run,
  async () => {
    const trace = newTrace();
    const count = 24;
    const since = new Date();
    // All first legs at once; the kill lands while the worker is in the middle of them: the first
    // ask is recorded and others are not yet.
    const starting = startAll(stack, count, trace, 300_000);
    await waitFor('the first round of this burst to be recorded', async () => (await recordedSince(since, 1)) >= 1, { timeoutMs: 60_000, intervalMs: 20 });
    await stack.stopWorker('SIGKILL');
    const interrupted = await exchangesWithStartedRound(stack);
    const recordedAtKill = await recordedSince(since, 1);
    expect({ roundsRunningOnTheKilledWorker: interrupted.length > 0, recordedAtKill: recordedAtKill < count }).toEqual({
      roundsRunningOnTheKilledWorker: true,
      recordedAtKill: true,
    });

    await stack.startWorker();
    const restarted = Date.now();
    const asks = await starting;
    const tookMs = Date.now() - restarted;
    expect(asks.map((ask) => Object.keys(ask.inputRequests))).toEqual(asks.map(() => ['name']));
    // An activity heartbeat timeout of ~5 s lets Temporal notice a round that died with its
    // worker; without one it waits out the 3-minute start-to-close timeout.
    expect({ interruptedRounds: interrupted.length, allAsksArrivedAfterRestartIn: tookMs < 30_000 ? 'under 30 s' : `${tookMs} ms` }).toEqual({
      interruptedRounds: interrupted.length,
      allAsksArrivedAfterRestartIn: 'under 30 s',
    });

    const names = namesFor('b', count);
    const replies = await answerAll(stack, asks, names, trace);
    await expectAllGreeted(stack, greeted(asks, names, replies));
    await expectNoRerunAfterRecording(stack, asks.map((a) => a.exchangeId));
  },
  330_000,
);

scenario('c. answers sent while no worker runs are durable: legs get state-only results, a started worker completes all', () => stack, run, async () => {
  const trace = newTrace();
  const names = namesFor('c', 6);
  const asks = await startAll(stack, names.length, trace);
  await stack.stopWorker('SIGTERM');
  const firsts = await Promise.all(asks.map((ask, i) => sendLeg(apisFor(stack, i), answerParams(ask, names[i]!), trace)));
  expect(firsts.map(isStateOnly)).toEqual(firsts.map(() => true));
  // Clients keep coming back while the worker is started.
  const finishing = Promise.all(asks.map((ask, i) => pollPastStateOnly(apisFor(stack, i), answerParams(ask, names[i]!), firsts[i]!, trace, 120_000)));
  await stack.startWorker();
  const replies = await finishing;
  await expectAllGreeted(stack, greeted(asks, names, replies));
  await expectNoRerunAfterRecording(stack, asks.map((a) => a.exchangeId));
});

scenario('j. worker SIGTERMed under load: its in-flight rounds finish within the grace time, a new worker continues, all complete', () => stack, run, async () => {
  const trace = newTrace();
  const names = namesFor('j-worker', 16);
  const asks = await startAll(stack, names.length, trace);
  const since = new Date();
  const answering = answerAll(stack, asks, names, trace);
  await waitFor('the first answered round of this burst to be recorded', async () => (await recordedSince(since, 2)) >= 1, { timeoutMs: 60_000, intervalMs: 20 });
  const old = stack.worker()!;
  const stopping = stack.stopWorker('SIGTERM');
  await stack.startWorker();
  const replies = await answering;
  // shutdownGraceTime is 10 s: the old worker exits by itself, cleanly.
  expect(await stopping).toBe('worker exited (code 0, signal null)');
  await expectAllGreeted(stack, greeted(asks, names, replies));
  // Every round the stopped worker started, it recorded (a round abandoned to a retry would not be).
  const mine = roundEvents([old.logFile]);
  const key = (e: { exchangeId: string; round: number }) => `${e.exchangeId}#${e.round}`;
  const recordedByOld = new Set(mine.filter((e) => e.msg === 'round recorded').map(key));
  expect(mine.filter((e) => e.msg === 'round started' && !recordedByOld.has(key(e))).map(key)).toEqual([]);
  await expectNoRerunAfterRecording(stack, asks.map((a) => a.exchangeId));
});



