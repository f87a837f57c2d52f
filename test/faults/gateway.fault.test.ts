/**
 * The gateway's windows: a round of an upstream tool calls the upstream (the official TypeScript SDK
 * 2.x server, test/support/sdk-upstream.ts) from a regular activity, so a worker can die while the
 * call is in flight, after the upstream ran it but before its answer came back, or after the round
 * was recorded but before Temporal knew. Each window is held open on purpose (a held upstream call,
 * a paused fault worker), the worker SIGKILLed in it, and a new one started. The caller gets its
 * result once; every call the upstream got for that round carries the same idempotency key (so an
 * upstream that dedupes applies it once); and a recorded round never calls the upstream again.
 */
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type ReceivedCall, type SdkUpstream } from '../support/sdk-upstream';
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
