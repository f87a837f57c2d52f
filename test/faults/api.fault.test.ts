/**
 * API processes die (SIGKILL) or stop (SIGTERM) between and during legs, and many copies of one
 * leg race over both: any replica takes any leg, and the same leg never advances an exchange twice.
 */
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { readLog } from './support/os-process';
import { expectAllGreeted, expectEnded, expectNoRerunAfterRecording } from './support/expectations';
import { answerAll, apisFor, greeted, namesFor, startAll } from './support/greet-fleet';
import {
  answerGreet,
  answerParams,
  askOf,
  type Ask,
  type LegTrace,
  greeting,
  newTrace,
  pollPastStateOnly,
  sendLeg,
  startGreet,
} from './support/modern-exchange';
import { countOf, roundEvents } from './support/round-log';
import { faultSuite, scenario } from './support/scenario';
import { describeExchangeWorkflow, historyCounts } from './support/temporal-probe';
import { answerStep, nextAsk, startWizard, WIZARD, wizardCompleted } from './support/wizard-exchange';
import { waitFor } from './support/wait-for';

const suite = faultSuite();

const linesOf = (file: string, msg: string) =>
  readLog(file)
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`)).length;

scenario(
  'g. an API process SIGKILLed between legs: the next leg goes to the other API process and completes',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const names = namesFor('g', 4);
    const onFirst = { urls: () => suite.stack.apiUrls(), prefer: 0 };
    const asks = await Promise.all(names.map(() => startGreet(onFirst, trace, suite.stack.keyRing)));
    const other = suite.stack.apiUrl(1);
    await suite.stack.stopApi(0, 'SIGKILL');
    const onOther = { urls: () => [other] };
    const replies = await Promise.all(asks.map((ask, i) => answerGreet(onOther, ask, names[i]!, trace)));
    expect(trace.connectionErrors).toBe(0);
    await expectAllGreeted(suite.stack, greeted(asks, names, replies));
    await expectNoRerunAfterRecording(
      suite.stack,
      asks.map((a) => a.exchangeId),
    );
    await suite.stack.startApi(0);
  },
);

scenario(
  'h. 20 identical second legs at once over both APIs: one final result for all, the round-2 handler ran once',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const ask = await startGreet({ urls: () => suite.stack.apiUrls() }, trace, suite.stack.keyRing);
    const params = answerParams(ask, 'Hedy');
    const replies = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const apis = apisFor(suite.stack, i);
        return pollPastStateOnly(apis, params, await sendLeg(apis, params, trace), trace, 120_000);
      }),
    );
    expect(replies.map((r) => r.body.error ?? r.body.result?.content)).toEqual(
      replies.map(() => greeting('Hedy').content),
    );
    const events = roundEvents(suite.stack.workerLogs());
    expect({
      started: countOf(events, 'round started', ask.exchangeId, 2),
      recorded: countOf(events, 'round recorded', ask.exchangeId, 2),
    }).toEqual({ started: 1, recorded: 1 });
    await expectAllGreeted(suite.stack, [{ exchangeId: ask.exchangeId, name: 'Hedy', reply: replies[0]! }]);
    await expectNoRerunAfterRecording(suite.stack, [ask.exchangeId]);
  },
);

scenario(
  'j. an API process SIGTERMed under load: its in-flight legs end cleanly, clients go on at the other, all complete',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const names = namesFor('j-api', 12);
    const asks = await startAll(suite.stack, 8, trace);
    // With no worker, every leg waits its whole HTTP wait on API 0: they are in flight when it stops.
    await suite.stack.stopWorker('SIGTERM');
    const api0Log = suite.stack.apiLogFile(0);
    const [signalledBefore, startedBefore] = [
      linesOf(api0Log, 'answers signalled'),
      linesOf(api0Log, 'exchange started'),
    ];
    const onFirst = (_i: number) => ({ urls: () => suite.stack.apiUrls(), prefer: 0 });
    const firstLegs: Array<Promise<unknown>> = [];
    const answered = asks.map((ask, i) => {
      const params = answerParams(ask, names[i]!);
      const first = sendLeg(onFirst(i), params, trace);
      firstLegs.push(first);
      return first.then((reply) => pollPastStateOnly(onFirst(i), params, reply, trace, 180_000));
    });
    const starting = names.slice(8).map(() => startGreet(onFirst(0), trace, suite.stack.keyRing, 180_000));
    await waitFor(
      'API 0 to hold the 8 answer legs and 4 first legs',
      () =>
        linesOf(api0Log, 'answers signalled') - signalledBefore >= 8 &&
        linesOf(api0Log, 'exchange started') - startedBefore >= 4,
    );
    await suite.stack.stopApi(0, 'SIGTERM');
    // Each leg API 0 held ended as a result, a state-only result or a connection error (then retried): never a JSON-RPC error.
    const outcomes = await Promise.allSettled(firstLegs);
    expect(
      outcomes.filter((o) => o.status === 'fulfilled' && (o.value as { body: { error?: unknown } }).body.error),
    ).toEqual([]);
    await suite.stack.startWorker();
    await suite.stack.startApi(0);
    const newAsks = await Promise.all(starting);
    const newReplies = await answerAll(suite.stack, newAsks, names.slice(8), trace);
    const replies = await Promise.all(answered);
    const all = [...asks, ...newAsks];
    await expectAllGreeted(suite.stack, greeted(all, names, [...replies, ...newReplies]));
    await expectNoRerunAfterRecording(
      suite.stack,
      all.map((a) => a.exchangeId),
    );
  },
);

// The kept-ask window (services/api/src/exchange-legs/served-asks.ts): the API that handed out an
// ask signals its answers without reading first, so answers the round already took (through the
// other API) reach the workflow again. Each scenario checks the window was hit (the history holds
// the second signal), then that the workflow ignored it, the leg got what the read would have
// given, and the exchange ends with the first answers, each round run once.

/** Only API `i`. */
const onApi = (i: 0 | 1) => ({ urls: () => [suite.stack.apiUrl(i)] });
const answerSignalsOf = async (exchangeId: string) =>
  (await historyCounts(suite.stack, workflowIdFor(exchangeId))).answerSignals;

/**
 * `name`'s wizard with its repeat of round 1 (`repeat`, to API 0, which handed out round 1's ask
 * and kept it) sent after API 1 took round 1's answers; then finished, each step through the API
 * the scenario did not use last, and checked to end with `name`'s own answers.
 */
async function keptAskRepeated(name: string, repeat: (first: Ask, second: Ask, trace: LegTrace) => Promise<void>) {
  const { stack } = suite;
  const trace = newTrace();
  const first = await startWizard(onApi(0), trace, stack.keyRing);
  const second = await nextAsk(onApi(1), first, name, 1, trace, stack.keyRing);
  await repeat(first, second, trace);
  const third = await nextAsk(onApi(1), second, name, 2, trace, stack.keyRing);
  const reply = await answerStep(onApi(0), third, name, 3, trace);
  await expectEnded(stack, first.exchangeId, reply, wizardCompleted(name));
}

scenario(
  'k. kept-ask window: round 1 answered through API 1, then the same answers to API 0, which kept the ask: signalled unread, ignored, answered with round 2',
  () => suite.stack,
  suite.run,
  () =>
    keptAskRepeated('kay', async (first, second, trace) => {
      const again = askOf(
        await answerStep(onApi(0), first, 'kay', 1, trace),
        suite.stack.keyRing,
        WIZARD,
        'the repeat',
      );
      expect({ repeat: again.inputRequests, answerSignals: await answerSignalsOf(first.exchangeId) }).toEqual({
        repeat: second.inputRequests,
        answerSignals: 2,
      });
    }),
);

scenario(
  'l. kept-ask window: round 1 answered through API 1, then other answers to API 0, which kept the ask: signalled unread, ignored, refused as answered differently',
  () => suite.stack,
  suite.run,
  () =>
    keptAskRepeated('lee', async (first, _second, trace) => {
      const other = await answerStep(onApi(0), first, 'someone-else', 1, trace);
      expect({ error: other.body.error?.code, answerSignals: await answerSignalsOf(first.exchangeId) }).toEqual({
        error: -32602,
        answerSignals: 2,
      });
    }),
);

scenario(
  'm. kept-ask window: a greet answered through API 1 to its end, then the same answers to API 0, which kept the ask: no workflow takes the signal, the leg reads and gets the result',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const trace = newTrace();
    const ask = await startGreet(onApi(0), trace, stack.keyRing);
    const done = await answerGreet(onApi(1), ask, 'Mo', trace);
    // The client has its result before the workflow closes: the repeat is sent once it has.
    await waitFor('the workflow to close', async () => {
      const { status } = await describeExchangeWorkflow(stack, workflowIdFor(ask.exchangeId));
      return status !== 'RUNNING';
    });
    const again = await answerGreet(onApi(0), ask, 'Mo', trace);
    expect({
      again: again.body.result?.content,
      answerSignals: await answerSignalsOf(ask.exchangeId),
    }).toEqual({ again: greeting('Mo').content, answerSignals: 1 });
    await expectAllGreeted(stack, [{ exchangeId: ask.exchangeId, name: 'Mo', reply: done }]);
    await expectNoRerunAfterRecording(stack, [ask.exchangeId]);
  },
);
