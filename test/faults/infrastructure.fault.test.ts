/**
 * The servers under the service restart: the Temporal dev server is SIGKILLed and started again
 * on its SQLite file and port, Postgres is stopped and started again on its data folder and port,
 * each while some exchanges wait for answers and others have answer legs (and rounds) in flight.
 */
import { expectAllGreeted, expectNoRerunAfterRecording } from './support/expectations';
import { answerAll, greeted, namesFor, startAll } from './support/greet-fleet';
import { newTrace } from './support/modern-exchange';
import { faultSuite, scenario } from './support/scenario';
import { readLog } from './support/os-process';
import { waitFor } from './support/wait-for';

const suite = faultSuite();

scenario(
  'e. Temporal SIGKILLed and restarted on its file while exchanges wait and legs are in flight: all complete',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const names = namesFor('e', 10);
    const asks = await startAll(suite.stack, names.length, trace);
    const [inFlight, waiting] = [asks.slice(0, 5), asks.slice(5)];
    // Answer legs, and first legs of new exchanges, on their way as the server dies.
    const answering = answerAll(suite.stack, inFlight, names.slice(0, 5), trace);
    const starting = startAll(suite.stack, 4, trace);
    await suite.stack.killTemporal();
    await suite.stack.startTemporal();
    const late = await answerAll(suite.stack, waiting, names.slice(5), trace);
    const newAsks = await starting;
    const newNames = namesFor('e-new', newAsks.length);
    const newReplies = await answerAll(suite.stack, newAsks, newNames, trace);
    const replies = [...(await answering), ...late, ...newReplies];
    const all = [...asks, ...newAsks];
    await expectAllGreeted(suite.stack, greeted(all, [...names, ...newNames], replies));
    await expectNoRerunAfterRecording(
      suite.stack,
      all.map((a) => a.exchangeId),
    );
  },
);

scenario(
  'f. Postgres stopped and started again while exchanges wait and rounds run: all complete',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const names = namesFor('f', 16);
    const asks = await startAll(suite.stack, names.length, trace);
    const [running, waiting] = [asks.slice(0, 10), asks.slice(10)];
    const api = [readLog(suite.stack.apiLogFile(0)), readLog(suite.stack.apiLogFile(1))].map((text) => text.length);
    const answering = answerAll(suite.stack, running, names.slice(0, 10), trace);
    // Stop it once the answered rounds are under way: every answer signalled (an answer leg still
    // reading Postgres before it signals would fail with -32603, as documented, and is not this
    // scenario), the rounds recorded or running into a down database. Rounds run as local
    // activities take a few milliseconds, so the first recorded round no longer means all are signalled.
    await waitFor('both APIs to have signalled the 10 answers', () => signalledSince(api) >= running.length, {
      timeoutMs: 60_000,
      intervalMs: 5,
    });
    await suite.stack.stopPostgres();
    await suite.stack.startPostgres();
    const late = await answerAll(suite.stack, waiting, names.slice(10), trace);
    const replies = [...(await answering), ...late];
    await expectAllGreeted(suite.stack, greeted(asks, names, replies));
    await expectNoRerunAfterRecording(
      suite.stack,
      asks.map((a) => a.exchangeId),
    );
  },
);

scenario(
  'f. (variant) Postgres stopped and started again while answer legs wait for their rounds: they get outcomes or state-only results, all complete',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const names = namesFor('f-wait', 6);
    const asks = await startAll(suite.stack, names.length, trace);
    // With no worker the rounds cannot finish, so every leg is still waiting when Postgres goes.
    await suite.stack.stopWorker('SIGTERM');
    const api = [readLog(suite.stack.apiLogFile(0)), readLog(suite.stack.apiLogFile(1))].map((text) => text.length);
    const answering = answerAll(suite.stack, asks, names, trace);
    await waitFor('both APIs to have signalled the 6 answers', () => signalledSince(api) >= names.length);
    await suite.stack.stopPostgres();
    await suite.stack.startPostgres();
    await suite.stack.startWorker();
    const replies = await answering;
    await expectAllGreeted(suite.stack, greeted(asks, names, replies));
    await expectNoRerunAfterRecording(
      suite.stack,
      asks.map((a) => a.exchangeId),
    );
  },
);

/** `answers signalled` lines the two APIs logged after the given offsets into their log files. */
function signalledSince(offsets: number[]): number {
  return [0, 1]
    .map(
      (slot) =>
        readLog(suite.stack.apiLogFile(slot as 0 | 1))
          .slice(offsets[slot])
          .split('\n')
          .filter((l) => l.includes('"msg":"answers signalled"')).length,
    )
    .reduce((a, b) => a + b, 0);
}
