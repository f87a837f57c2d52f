/**
 * The gateway's windows: a round of an upstream tool calls the upstream (the official TypeScript SDK
 * 2.x server, test/support/sdk-upstream.ts) from its activity, so a worker can die while the call
 * is in flight, after the upstream ran it but before its answer came back, or after the round was
 * recorded but before Temporal knew. Each window is held open on purpose (a held upstream call, a
 * paused fault worker), the worker SIGKILLed in it, and a new one started. Each is run for both
 * round kinds, one upstream declared each way in front of the same server: `shop`'s rounds are
 * regular activities (a dead worker noticed by the heartbeat timeout), `near`'s local ones
 * (`roundActivity: 'local'`: inside the workflow task, a dead worker noticed when that task times
 * out, and the round run again by the task that replaces it). The caller gets its result once;
 * every call the upstream got for that round carries the same idempotency key (so an upstream that
 * dedupes applies it once); and a recorded round never calls the upstream again.
 * The same holds for the round that carries a person's answer to the upstream's ask (a regular
 * upstream): the answer is asked for and recorded once, and the round's calls carry it with one key.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type HeldCall, type ReceivedCall, type SdkUpstream } from '../support/sdk-upstream';
import { until } from '../support/until';
import { faultSuite, pausedWorker, scenario } from './support/scenario';
import { LOCAL_WINDOW_MS, waitForWindow } from './support/fault-window';
import { historyCounts, startedOnWorker } from './support/temporal-probe';
import { waitFor } from './support/wait-for';

type RoundKind = 'regular' | 'local';
/** The tool `add` as each upstream lists it. */
const ADD: Record<RoundKind, string> = { regular: 'add', local: 'near_add' };

let upstream: SdkUpstream;
// A local round's calls (2 x 10 s + 250 ms) fit its bound; nothing here waits on either.
const serviceEnv: Record<string, string> = { HANDLER_SET: 'none', LOCAL_HANDLER_TIMEOUT_MS: '30000' };
beforeAll(async () => {
  upstream = await startSdkUpstream();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gateway-faults-')), 'upstreams.json');
  const near = { name: 'near', url: upstream.url, toolPrefix: 'near_', roundActivity: 'local', callTimeoutMs: 10_000 };
  writeFileSync(
    file,
    JSON.stringify({
      upstreams: [
        { name: 'shop', url: upstream.url },
        { ...near, retries: 1 },
      ],
    }),
  );
  serviceEnv.UPSTREAMS_FILE = file;
});
afterAll(() => upstream?.close());
// Legs held long enough that the client's retry loop outlasts a worker's restart and a heartbeat
// (or workflow task) timeout.
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
async function callAdd(kind: RoundKind, a: number) {
  const client = await connectModernClient(suite.stack.apiUrl(0), {});
  const result = client.callTool({ name: ADD[kind], arguments: { a, b: 1 } }).finally(() => client.close());
  return result as Promise<ToolResult>;
}

async function replaceWorker() {
  await suite.stack.stopWorker('SIGKILL');
  await suite.stack.startWorker();
}

/** What Temporal held of the round when its worker died: nothing known of its result, and where it ran. */
async function heldAtKill(exchangeId: string) {
  const workflowId = workflowIdFor(exchangeId);
  const counts = await historyCounts(suite.stack, workflowId);
  return { results: counts.localResults + counts.activityResults, ...(await startedOnWorker(suite.stack, workflowId)) };
}

/** Where a round of `kind` runs while it runs: its own activity, or the workflow task that decides it. */
const runningAs = (kind: RoundKind) =>
  kind === 'local' ? { results: 0, activity: false, workflowTask: true } : { results: 0, activity: true };

/** Once the workflow closed, how its one round's result reached the history: a local activity's marker, or an activity's completion. */
async function roundResultsOf(kind: RoundKind, exchangeId: string) {
  const workflowId = workflowIdFor(exchangeId);
  await waitFor('the exchange workflow to close', async () => {
    const [row] = await suite.stack.query<{ status: string }>('SELECT status FROM exchanges WHERE id = $1', [
      exchangeId,
    ]);
    const counts = await historyCounts(suite.stack, workflowId);
    return row?.status === 'completed' && counts.localResults + counts.activityResults > 0 && counts;
  });
  const { localResults, activityResults } = await historyCounts(suite.stack, workflowId);
  expect({ localResults, activityResults }).toEqual(
    kind === 'local' ? { localResults: 1, activityResults: 0 } : { localResults: 0, activityResults: 1 },
  );
}

/**
 * The worker SIGKILLed while the upstream holds the round's call of `add` with `a`: `before` it ran
 * it (in flight), or `after` it ran it, before its answer went out (returned). The round's retry
 * (after the heartbeat timeout for a regular round, the workflow task's for a local one) calls
 * again with the same key, and the caller gets one result.
 */
async function killedWhileUpstreamHolds(kind: RoundKind, when: 'before' | 'after', a: number) {
  const held = upstream.hold('add', when);
  const result = callAdd(kind, a);
  const first = await held.arrived;
  const arrivedAt = Date.now();
  expect(callsWith(upstream.applied, a)).toHaveLength(when === 'after' ? 1 : 0);
  const exchangeId = keyOf(first).split('/')[0]!;
  const atKill = await heldAtKill(exchangeId);
  await replaceWorker();
  // A local round's window closes when the SDK heartbeats its workflow task (fault-window.ts).
  if (kind === 'local') expect(Date.now() - arrivedAt).toBeLessThan(LOCAL_WINDOW_MS);
  expect(atKill).toMatchObject(runningAs(kind));
  const answer = await result;
  held.release();
  expect(answer.content[0]!.text).toBe(String(a + 1));
  // Every call of the round carries one key: an upstream that dedupes by it applies it once.
  expect(callsWith(upstream.calls, a).map(keyOf)).toEqual([keyOf(first), keyOf(first)]);
  // Returned, the upstream ran it twice (in flight, the first call never ran before the answer).
  if (when === 'after') expect(callsWith(upstream.applied, a).map(keyOf)).toEqual([keyOf(first), keyOf(first)]);
  expect(keyOf(first)).toMatch(/\/1$/);
  expect(await exchangeRounds(exchangeId)).toEqual([{ round: 1, status: 'completed' }]);
  await roundResultsOf(kind, exchangeId);
}

/**
 * The worker SIGKILLed after the round recorded the upstream's result of `add` with `a`, before
 * Temporal knew (a regular round's activity, or a local round's workflow task, held open): the
 * retried round finds its record, and the upstream ran the call once.
 */
async function killedOnceRecorded(kind: RoundKind, a: number) {
  const paused = await pausedWorker(suite.stack, `activity=runRound,round=1,outcome=complete,target=${ADD[kind]}`);
  const result = callAdd(kind, a);
  const window = await waitForWindow(paused);
  const atKill = await heldAtKill(window.exchangeId);
  await replaceWorker();
  if (kind === 'local') expect(Date.now() - window.openedAt).toBeLessThan(LOCAL_WINDOW_MS);
  expect(window).toMatchObject({ round: 1, local: kind === 'local', outcome: 'complete' });
  expect(atKill).toMatchObject(runningAs(kind));
  expect((await result).content[0]!.text).toBe(String(a + 1));
  expect(callsWith(upstream.applied, a)).toHaveLength(1);
  expect(callsWith(upstream.calls, a).map(keyOf)).toEqual([`${window.exchangeId}/1`]);
  expect(await exchangeRounds(window.exchangeId)).toEqual([{ round: 1, status: 'completed' }]);
  await roundResultsOf(kind, window.exchangeId);
}

describe.each([
  ['regular', 10],
  ['local', 100],
] as const)('%s rounds', (kind, base) => {
  scenario(
    'in flight: the worker SIGKILLed while the upstream holds the call unanswered: the round calls again with the same key, and the caller gets one result',
    () => suite.stack,
    suite.run,
    () => killedWhileUpstreamHolds(kind, 'before', base),
  );

  scenario(
    'returned: the worker SIGKILLed after the upstream ran the call, before its answer arrived: the retry carries the same key, and the caller gets one result',
    () => suite.stack,
    suite.run,
    () => killedWhileUpstreamHolds(kind, 'after', base + 10),
  );

  scenario(
    'recorded: the worker SIGKILLed after the round recorded the upstream result, before Temporal knew: the retry finds the record and never calls the upstream again',
    () => suite.stack,
    suite.run,
    () => killedOnceRecorded(kind, base + 20),
  );
});

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
