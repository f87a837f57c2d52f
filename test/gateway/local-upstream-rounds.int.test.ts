/**
 * An upstream declared with `roundActivity: 'local'` beside one left regular, both in front of the
 * same real upstream (the official TypeScript SDK 2.x server): the local one's rounds run inside
 * the workflow task that decides them, so its exchange's history holds a local activity's marker
 * per round and no activity task events, where the regular one's holds activity tasks. Everything
 * else is as for a regular upstream: its two-round call completes with the upstream's state and an
 * idempotency key per round, a call held past `callTimeoutMs` is retried with the same key within
 * the round (no heartbeat needed: the round's own bound aborts its calls), and an approval policy
 * holds a call until its addressee approves, then forwards it once. Real tokens from a real
 * authorization server, real Temporal and Postgres.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { temporal } from '@temporalio/proto';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { startAnsweringStack, type AnsweringStack } from '../answers/answering-stack';
import type { OAuthStack } from '../support/oauth-stack';
import { startSdkUpstream, type ReceivedCall, type SdkUpstream } from '../support/sdk-upstream';
import { until } from '../support/until';

const EventType = temporal.api.enums.v1.EventType;
type ToolResult = {
  content: Array<{ type: string; text: string }>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

const BIG_SUMS = {
  name: 'big sums',
  tools: ['add'],
  when: [{ argument: 'a', op: 'gt', value: 100 }],
  // The one scope the test authorization server grants an approver (test/support/oauth-stack.ts).
  approve: { anyOf: [{ scope: 'refunds:approve' }] },
};

let upstream: SdkUpstream;
let answering: AnsweringStack;
let stack: OAuthStack;

beforeAll(async () => {
  upstream = await startSdkUpstream();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'local-upstream-')), 'upstreams.json');
  // near: 3 x 2000 + 250 + 1000 = 7250 ms of calls at worst, under the local bound set below.
  const near = { name: 'near', url: upstream.url, toolPrefix: 'near_', roundActivity: 'local', callTimeoutMs: 2_000 };
  const far = { name: 'far', url: upstream.url, toolPrefix: 'far_' };
  writeFileSync(file, JSON.stringify({ upstreams: [{ ...near, policies: [BIG_SUMS] }, far] }));
  answering = await startAnsweringStack(
    { name: 'none', tools: [] },
    { UPSTREAMS_FILE: file, LOCAL_HANDLER_TIMEOUT_MS: '20000' },
  );
  ({ stack } = answering);
}, 120_000);
afterAll(async () => {
  await answering?.close();
  await upstream?.close();
});

/** Alice's 2026-07-28 client, answering the upstream's forms with `content` when given. */
async function aliceClient(content?: Record<string, unknown>): Promise<Client> {
  const client = new Client(
    { name: 'desk', version: '1.0.0' },
    { capabilities: content ? { elicitation: {} } : {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  if (content) client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content }) as never);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(stack.service.url), {
      requestInit: { headers: { authorization: await stack.bearer('alice') } },
    }),
  );
  return client;
}

const keyOf = (call: ReceivedCall) => call._meta?.idempotencyKey as string;
const exchangeOf = (call: ReceivedCall) => keyOf(call).split('/')[0]!;

/** What the finished exchange's history holds of its rounds: local activities' markers, activity task events. */
async function roundEvents(exchangeId: string) {
  const handle = stack.service.temporal.workflow.getHandle(workflowIdFor(exchangeId));
  await handle.result();
  const events = (await handle.fetchHistory()).events ?? [];
  const type = (event: (typeof events)[number]) => EventType[event.eventType!]!;
  return {
    markers: events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length,
    activityTasks: events.filter((e) => type(e).startsWith('EVENT_TYPE_ACTIVITY_TASK')).map(type),
  };
}

describe("an upstream whose rounds are local activities (roundActivity: 'local')", () => {
  it('completes a two-round call with a marker per round and no activity task events, where a regular upstream schedules activities', async () => {
    const client = await aliceClient({ name: 'Ada' });
    const local = (await client.callTool({ name: 'near_confirm_order', arguments: { order: 'L-1' } })) as ToolResult;
    const regular = (await client.callTool({ name: 'far_confirm_order', arguments: { order: 'R-1' } })) as ToolResult;
    await client.close();
    expect(local.content[0]?.text).toBe('placed L-1 for Ada (order:L-1)');
    expect(regular.content[0]?.text).toBe('placed R-1 for Ada (order:R-1)');

    const calls = upstream.calls.filter((call) => call.arguments?.order === 'L-1');
    expect(calls.map(keyOf)).toEqual([`${exchangeOf(calls[0]!)}/1`, `${exchangeOf(calls[0]!)}/2`]);
    expect(calls[1]!.requestState).toBe('order:L-1');
    expect(await roundEvents(exchangeOf(calls[0]!))).toEqual({ markers: 2, activityTasks: [] });

    const [farCall] = upstream.calls.filter((call) => call.arguments?.order === 'R-1');
    const far = await roundEvents(exchangeOf(farCall!));
    expect(far.markers).toBe(0);
    expect(far.activityTasks.filter((t) => t === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED')).toHaveLength(2);
  }, 60_000);

  it('retries a call the upstream holds past callTimeoutMs within the round, with the same key', async () => {
    const held = upstream.hold('add', 'before');
    const client = await aliceClient();
    const result = (await client.callTool({ name: 'near_add', arguments: { a: 7, b: 1 } })) as ToolResult;
    await client.close();
    held.release();
    expect(result.content[0]?.text).toBe('8');
    const calls = upstream.calls.filter((call) => call.arguments?.a === 7);
    expect(calls.map(keyOf)).toEqual([`${exchangeOf(calls[0]!)}/1`, `${exchangeOf(calls[0]!)}/1`]);
    expect(await roundEvents(exchangeOf(calls[0]!))).toEqual({ markers: 1, activityTasks: [] });
  }, 60_000);

  it('holds a call for its approval before forwarding it, then forwards it once, as a regular upstream does', async () => {
    const client = await aliceClient();
    const call = client.callTool(
      { name: 'near_add', arguments: { a: 400, b: 2 } },
      { timeout: 60_000, resetTimeoutOnProgress: true, onprogress: () => undefined },
    );
    call.catch(() => undefined); // awaited below
    const headers = {
      authorization: await stack.serviceBearer('dana', 'refunds:approve'),
      'content-type': 'application/json',
    };
    const questions = stack.service.url.replace(/\/mcp$/, '/answers/api/questions');
    const question = await until('the approval in dana’s inbox', async () => {
      const listed = (await (await fetch(questions, { headers })).json()) as {
        questions: Array<{ id: string; exchangeId: string; target: string; shownDigest: string }>;
      };
      return listed.questions.find((q) => q.target === 'near_add');
    });
    // Held: nothing reached the upstream.
    expect(upstream.calls.filter((c) => c.arguments?.a === 400)).toEqual([]);
    const approval = { action: 'accept', content: {}, shownDigest: question.shownDigest };
    const answered = await fetch(`${questions}/${question.id}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(approval),
    });
    expect(((await answered.json()) as { taken?: boolean }).taken).toBe(true);

    const result = (await call) as ToolResult;
    await client.close();
    expect(result.content).toEqual([{ type: 'text', text: '402' }]);
    expect(result._meta?.['io.durable-mcp/approvals']).toEqual([
      expect.objectContaining({ key: 'gateway_approval', action: 'accept' }),
    ]);
    // Forwarded once, in the round after the approval.
    expect(upstream.calls.filter((c) => c.arguments?.a === 400).map(keyOf)).toEqual([`${question.exchangeId}/2`]);
    expect(await roundEvents(question.exchangeId)).toEqual({ markers: 2, activityTasks: [] });
  }, 90_000);
});
