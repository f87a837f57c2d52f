/**
 * The gateway's windows: a round of an upstream tool calls the upstream (the official TypeScript SDK
 * 2.x server, test/support/sdk-upstream.ts) from a regular activity, so a worker can die while the
 * call is in flight, after the upstream ran it but before its answer came back, or after the round
 * was recorded but before Temporal knew. Each window is held open on purpose (a held upstream call,
 * a paused fault worker), the worker SIGKILLed in it, and a new one started. The caller gets its
 * result once; every call the upstream got for that round carries the same idempotency key (so an
 * upstream that dedupes applies it once); and a recorded round never calls the upstream again.
 * The same holds for the round that carries a person's answer to the upstream's ask: the answer is
 * asked for and recorded once, and the round's calls carry it with one key.
 */
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type HeldCall, type ReceivedCall, type SdkUpstream } from '../support/sdk-upstream';
import { until } from '../support/until';
import { faultSuite, pausedWorker, scenario } from './support/scenario';
import { waitForWindow } from './support/fault-window';

let upstream: SdkUpstream;
const serviceEnv: Record<string, string> = { HANDLER_SET: 'none', UPSTREAM_NAME: 'shop' };
beforeAll(async () => {
  upstream = await startSdkUpstream();
  serviceEnv.UPSTREAM_URL = upstream.url;
});
afterAll(() => upstream?.close());
// Legs held long enough that the client's retry loop outlasts a worker's restart and a heartbeat timeout.
const suite = faultSuite({ sharedWorkflowBundle: true, serviceEnv, httpWaitMs: 10_000 });

type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };
const keyOf = (call: ReceivedCall) => call._meta?.idempotencyKey as string;
const callsWith = (list: ReceivedCall[], a: number) => list.filter((call) => call.arguments?.a === a);

async function exchangeRounds(exchangeId: string) {
  return suite.stack.query<{ round: number; status: string }>(
    `SELECT r.round, e.status FROM exchange_rounds r JOIN exchanges e ON e.id = r.exchange_id WHERE e.id = $1`,
    [exchangeId],
  );
}

/** Calls `add` with `a` through the first API, as a 2026-07-28 client would, not awaited. */
async function callAdd(a: number) {
  const client = await connectModernClient(suite.stack.apiUrl(0), {});
  const result = client.callTool({ name: 'add', arguments: { a, b: 1 } }).finally(() => client.close());
  return result as Promise<ToolResult>;
}

async function replaceWorker() {
  await suite.stack.stopWorker('SIGKILL');
  await suite.stack.startWorker();
}

/**
 * The worker SIGKILLed while the upstream holds the round's call of `add` with `a`: `before` it ran
 * it (in flight), or `after` it ran it, before its answer went out (returned). The round's retry
 * (after the heartbeat timeout) calls again with the same key, and the caller gets one result.
 */
async function killedWhileUpstreamHolds(when: 'before' | 'after', a: number) {
  const held = upstream.hold('add', when);
  const result = callAdd(a);
  const first = await held.arrived;
  expect(callsWith(upstream.applied, a)).toHaveLength(when === 'after' ? 1 : 0);
  await replaceWorker();
  const answer = await result;
  held.release();
  expect(answer.content[0]!.text).toBe(String(a + 1));
  // Every call of the round carries one key: an upstream that dedupes by it applies it once.
  expect(callsWith(upstream.calls, a).map(keyOf)).toEqual([keyOf(first), keyOf(first)]);
  // Returned, the upstream ran it twice (in flight, the first call never ran before the answer).
  if (when === 'after') expect(callsWith(upstream.applied, a).map(keyOf)).toEqual([keyOf(first), keyOf(first)]);
  expect(keyOf(first)).toMatch(/\/1$/);
  const exchangeId = keyOf(first).split('/')[0]!;
  expect(await exchangeRounds(exchangeId)).toEqual([{ round: 1, status: 'completed' }]);
}

scenario(
  'in flight: the worker SIGKILLed while the upstream holds the call unanswered: the round calls again with the same key, and the caller gets one result',
  () => suite.stack,
  suite.run,
  () => killedWhileUpstreamHolds('before', 10),
);

scenario(
  'returned: the worker SIGKILLed after the upstream ran the call, before its answer arrived: the retry carries the same key, and the caller gets one result',
  () => suite.stack,
  suite.run,
  () => killedWhileUpstreamHolds('after', 20),
);

/**
 * The worker SIGKILLed while the upstream holds round 2 of `confirm_order`, the round that carries
 * the caller's answer to its ask: `before` it ran it, or `after`. The answer was asked for once and
 * is recorded once; both calls of round 2 carry it, under one key; the caller gets one result.
 */
async function killedWhileUpstreamHoldsTheAnswer(when: 'before' | 'after', order: string) {
  let held: HeldCall | undefined;
  let asked = 0;
  const client = await connectModernClient(suite.stack.apiUrl(0), async () => {
    asked += 1;
    // Round 1 asked: hold the upstream's next call of the tool, round 2, with this answer.
    held ??= upstream.hold('confirm_order', when);
    return { action: 'accept', content: { name: 'Ada' } };
  });
  const result = client.callTool({ name: 'confirm_order', arguments: { order } }).finally(() => client.close());
  const roundTwo = await (await until('the answer to be given', async () => held)).arrived;
  expect(roundTwo.inputResponses).toEqual({ confirm: { action: 'accept', content: { name: 'Ada' } } });
  await replaceWorker();
  const answer = (await result) as ToolResult;
  held!.release();
  expect(answer.content[0]!.text).toBe(`placed ${order} for Ada (order:${order})`);
  expect(asked).toBe(1);
  const calls = upstream.calls.filter((call) => call.arguments?.order === order);
  const exchangeId = keyOf(calls[0]!).split('/')[0]!;
  expect(calls.map(keyOf)).toEqual([`${exchangeId}/1`, `${exchangeId}/2`, `${exchangeId}/2`]);
  expect(calls[2]!.inputResponses).toEqual(calls[1]!.inputResponses);
  expect(calls[2]!.requestState).toBe(`order:${order}`);
  const rows = await suite.stack.query<{ round: number; answers: unknown }>(
    'SELECT round, answers FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round',
    [exchangeId],
  );
  expect(rows).toEqual([
    { round: 1, answers: null },
    { round: 2, answers: { confirm: { action: 'accept', content: { name: 'Ada' } } } },
  ]);
}

scenario(
  'answer in flight: the worker SIGKILLed while the upstream holds the round carrying the answer: asked once, recorded once, called again with the same key',
  () => suite.stack,
  suite.run,
  () => killedWhileUpstreamHoldsTheAnswer('before', 'F-1'),
);

scenario(
  'answer returned: the worker SIGKILLed after the upstream ran the round carrying the answer: asked once, recorded once, called again with the same key',
  () => suite.stack,
  suite.run,
  () => killedWhileUpstreamHoldsTheAnswer('after', 'F-2'),
);

scenario(
  'recorded: the worker SIGKILLed after the round recorded the upstream result, before Temporal knew: the retry finds the record and never calls the upstream again',
  () => suite.stack,
  suite.run,
  async () => {
    const paused = await pausedWorker(suite.stack, 'activity=runRound,round=1,outcome=complete,target=add');
    const result = callAdd(30);
    const window = await waitForWindow(paused);
    expect(window).toMatchObject({ round: 1, local: false, outcome: 'complete' });
    await replaceWorker();
    expect((await result).content[0]!.text).toBe('31');
    expect(callsWith(upstream.applied, 30)).toHaveLength(1);
    expect(await exchangeRounds(window.exchangeId)).toEqual([{ round: 1, status: 'completed' }]);
  },
);
