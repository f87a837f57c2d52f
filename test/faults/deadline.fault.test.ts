/**
 * A round's deadline is strict even when no worker runs to fire its timer: an answer that comes
 * after the deadline is refused by the API before it signals, and the exchange is recorded as
 * expired once a worker is back; an answer that came in time wins, however late the worker.
 */
import { EXCHANGE_EXPIRED } from '../../lib/protocol/exchange-errors';
import {
  answerParams,
  greeting,
  isStateOnly,
  newTrace,
  pollPastStateOnly,
  sendLeg,
  startGreet,
  type Ask,
} from './support/modern-exchange';
import { expectAllGreeted, expectNoRerunAfterRecording } from './support/expectations';
import { faultSuite, scenario } from './support/scenario';
import { readLog } from './support/os-process';
import { waitFor } from './support/wait-for';

const ROUND_TIMEOUT_MS = 8_000;

const suite = faultSuite({ apiEnv: { ROUND_TIMEOUT_MS: String(ROUND_TIMEOUT_MS) } });

const apis = { urls: () => suite.stack.apiUrls() };

/** When round 1's answers are due: the ask's recording plus the round timeout (the timer starts just after). */
async function deadlineOf(ask: Ask): Promise<number> {
  const rows = await suite.stack.query<{ recorded_at: Date }>(
    'SELECT recorded_at FROM exchange_rounds WHERE exchange_id = $1 AND round = 1',
    [ask.exchangeId],
  );
  return rows[0]!.recorded_at.getTime() + ROUND_TIMEOUT_MS;
}

async function statusOf(exchangeId: string): Promise<string | undefined> {
  return (await suite.stack.query<{ status: string }>('SELECT status FROM exchanges WHERE id = $1', [exchangeId]))[0]
    ?.status;
}

/** How many times the APIs signalled answers to this exchange's workflow (their `answers signalled` lines). */
const signalsTo = (exchangeId: string) =>
  [suite.stack.apiLogFile(0), suite.stack.apiLogFile(1)]
    .flatMap((file) => readLog(file).split('\n'))
    .filter((line) => line.includes('"msg":"answers signalled"') && line.includes(`"exchangeId":"${exchangeId}"`))
    .length;

const errorOrKind = (reply: { body: { error?: { code: number }; result?: Record<string, unknown> } }) =>
  reply.body.error
    ? { code: reply.body.error.code }
    : isStateOnly(reply as never)
      ? 'state-only result'
      : reply.body.result;

scenario(
  'd. the round timeout passes with no worker: a late answer is refused with -32001, the exchange is recorded expired once a worker is back',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const ask = await startGreet(apis, trace, suite.stack.keyRing);
    const deadline = await deadlineOf(ask);
    await suite.stack.stopWorker('SIGTERM');
    await waitFor('the round deadline to pass (plus 2 s)', () => Date.now() > deadline + 2_000, {
      timeoutMs: ROUND_TIMEOUT_MS + 30_000,
    });

    const late = await sendLeg(apis, answerParams(ask, 'Late'), trace);
    await suite.stack.startWorker();
    let status: string | undefined;
    try {
      status = await waitFor(
        'Postgres to record the expiry',
        async () => ((await statusOf(ask.exchangeId)) === 'expired' ? 'expired' : undefined),
        { timeoutMs: 30_000 },
      );
    } catch {
      status = await statusOf(ask.exchangeId);
    }
    const retry = await sendLeg(apis, answerParams(ask, 'Late'), trace);
    // Refused before signalling: the late answers never reached the workflow's history.
    expect({
      lateAnswer: errorOrKind(late),
      status,
      retry: errorOrKind(retry),
      signalled: signalsTo(ask.exchangeId),
    }).toEqual({
      lateAnswer: { code: EXCHANGE_EXPIRED },
      status: 'expired',
      retry: { code: EXCHANGE_EXPIRED },
      signalled: 0,
    });
  },
);

scenario(
  'd. (variant) an answer sent before the deadline while no worker runs, worker started after the deadline: the exchange completes',
  () => suite.stack,
  suite.run,
  async () => {
    const trace = newTrace();
    const ask = await startGreet(apis, trace, suite.stack.keyRing);
    const deadline = await deadlineOf(ask);
    await suite.stack.stopWorker('SIGTERM');
    const params = answerParams(ask, 'Punctual');
    const first = await sendLeg(apis, params, trace);
    const before = Date.now() < deadline;
    // The API's log line reaches its file through this process's pipe, maybe just after the reply.
    const signalled = await waitFor('the API to log its signal', () => signalsTo(ask.exchangeId) || undefined, {
      timeoutMs: 5_000,
    }).catch(() => 0);
    expect({ before, reply: errorOrKind(first), signalled }).toEqual({
      before: true,
      reply: 'state-only result',
      signalled: 1,
    });
    await waitFor('the round deadline to pass (plus 2 s)', () => Date.now() > deadline + 2_000, {
      timeoutMs: ROUND_TIMEOUT_MS + 30_000,
    });
    await suite.stack.startWorker();
    const reply = await pollPastStateOnly(apis, params, first, trace, 120_000);
    expect(reply.body.error ?? reply.body.result?.content).toEqual(greeting('Punctual').content);
    await expectAllGreeted(suite.stack, [{ exchangeId: ask.exchangeId, name: 'Punctual', reply }]);
    await expectNoRerunAfterRecording(suite.stack, [ask.exchangeId]);
  },
);
