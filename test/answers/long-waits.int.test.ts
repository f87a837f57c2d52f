/**
 * Waits longer than a client's retry loop, with the official 2026-07-28 client, real tokens, a
 * real Temporal and Postgres: at the last result the client's loop takes (PENDING_RESULT_AT_LEG,
 * shortened here with the holds), a call still waiting on an approver gets the pending result,
 * in the words an agent reads: who it waits for, until when, and the handle for `await_answer`.
 * `await_answer` waits again and returns the call's own result once the approver answered, once;
 * nobody else can wait on the handle. A tool that takes an error instead is withdrawn: its
 * exchange cancelled, its question closed. A Go client's loop, which fails on its third
 * state-only result, gets the pending result there. A call repeated while the first still waits
 * joins it (always with the same idempotency key, and as an identical call unless its tool says
 * otherwise): the approver is asked once, and both calls get the one outcome.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientName, OAuthStack } from '../support/oauth-stack';
import { until } from '../support/until';
import { longWaitProbes, useLongWaitStack, pendingOf, type ToolResult } from './long-wait-support';

/** Results 1 to 4 of a loop are state-only "come back"s, result 5 is the pending one (a Go client's: 3). */
const AT_LEG = 5;
const theStack = useLongWaitStack({
  QUESTION_HOLD_MS: '1500',
  HTTP_WAIT_MS: '1500',
  PENDING_RESULT_AT_LEG: String(AT_LEG),
});
let stack: OAuthStack;
beforeAll(() => {
  stack = theStack();
});
const { danaApproves, questionsOn, exchangeState } = longWaitProbes(() => stack);

async function modernClient(name: ClientName, userAgent?: string, formAnswers: string[] = []) {
  const client = new Client(
    { name: 'desk', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  // Each form this client is asked takes the next name; none left: the test sees it was asked.
  client.setRequestHandler('elicitation/create', async () => {
    const name = formAnswers.shift();
    if (name === undefined) throw new Error('asked a form it should not have been');
    return { action: 'accept', content: { name } };
  });
  const authorization = await stack.bearer(name);
  const headers: Record<string, string> = { authorization, ...(userAgent ? { 'user-agent': userAgent } : {}) };
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.service.url), { requestInit: { headers } }));
  return client;
}

/** How many retries the official client's loop made: it reports each as progress ("round N"). */
function driverRounds() {
  let rounds = 0;
  return {
    onprogress: (progress: { message?: string }) => {
      if (progress.message?.startsWith('Fulfilling input required')) rounds += 1;
    },
    seen: () => rounds,
  };
}

describe('a wait longer than the client waits', () => {
  it('lists await_answer beside the tools', async () => {
    const alice = await modernClient('alice');
    const { tools } = await alice.listTools();
    expect(tools.map((t) => t.name)).toEqual(['slow_greet', 'refund', 'refund_strict', 'refund_each', 'await_answer']);
  });

  it('gets the pending result, then await_answer returns the call’s own result once the approver answers', async () => {
    const alice = await modernClient('alice');
    const rounds = driverRounds();
    const pending = (await alice.callTool(
      { name: 'refund', arguments: { order: 'LW-P-1' } },
      { onprogress: rounds.onprogress },
    )) as ToolResult;
    expect(rounds.seen()).toBe(AT_LEG - 1);
    const meta = pendingOf(pending);
    expect(pending.isError).toBe(true);
    expect(meta).toMatchObject({ status: 'pending', tool: 'refund', awaitTool: 'await_answer' });
    expect(meta!.waitingFor).toMatch(/^Waiting for an answer from a holder of refunds:approve \(until .* UTC\)/);
    expect(Date.parse(meta!.until!)).toBeGreaterThan(Date.now() + 3_000_000);
    // What an agent reads: it is not a failure, who it waits for, and the exact call to make next.
    const text = pending.content[0]!.text;
    expect(text).toContain('nothing failed');
    expect(text).toContain('a holder of refunds:approve');
    expect(text).toContain(`call the tool "await_answer" with {"handle":"${meta!.handle}"}`);
    expect(text).toContain('Calling "refund" again with the same arguments also comes back to this call');
    expect(await exchangeState(meta!.handle)).toEqual({ status: 'running', questions: ['waiting'] });

    // Still waiting: await_answer is pending again, in the same words.
    const again = (await alice.callTool({ name: 'await_answer', arguments: { handle: meta!.handle } })) as ToolResult;
    expect(pendingOf(again)).toMatchObject({ status: 'pending', handle: meta!.handle, tool: 'refund' });

    // Someone else cannot wait on it, and cannot tell it from a handle that names nothing.
    const bob = await modernClient('bob');
    const refusals = await Promise.all(
      [meta!.handle, '00000000-0000-4000-8000-000000000000', 'not-a-handle'].map((handle) =>
        bob.callTool({ name: 'await_answer', arguments: { handle } }).then(
          () => undefined,
          (error: { code?: number; message: string }) => ({ code: error.code, message: error.message }),
        ),
      ),
    );
    expect(refusals).toEqual(
      Array(3).fill({ code: -32602, message: expect.stringContaining('names no pending call of yours') }),
    );

    const awaited = alice.callTool({ name: 'await_answer', arguments: { handle: meta!.handle } });
    await danaApproves('LW-P-1');
    const result = (await awaited) as ToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.content[0]!.text).toBe('accept for LW-P-1 by dana via api (ok)');
    // Waiting on it once more gives the same outcome: it was applied once.
    const replay = (await alice.callTool({ name: 'await_answer', arguments: { handle: meta!.handle } })) as ToolResult;
    expect(replay.content[0]!.text).toBe('accept for LW-P-1 by dana via api (ok)');
    expect(await exchangeState(meta!.handle)).toEqual({ status: 'completed', questions: ['answered'] });
  }, 60_000);

  it('withdraws the call of a tool that takes an error instead: its exchange is cancelled, its question closed', async () => {
    const alice = await modernClient('alice');
    const result = (await alice.callTool({ name: 'refund_strict', arguments: { order: 'LW-S-1' } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(pendingOf(result)).toBeUndefined();
    expect(result.content[0]!.text).toMatch(/^The call to "refund_strict" was withdrawn: no answer came/);
    const { rows } = await stack.service.pool.query<{ id: string }>(
      `SELECT id FROM exchanges WHERE target = 'refund_strict' ORDER BY created_at DESC LIMIT 1`,
    );
    await until('the withdrawn exchange ended', async () => {
      const state = await exchangeState(rows[0]!.id);
      return state.status !== 'running' && !state.questions.includes('waiting') ? state : undefined;
    });
    expect((await exchangeState(rows[0]!.id)).status).toBe('cancelled');
  }, 60_000);

  it("gets a Go client's loop the pending result at its third state-only result", async () => {
    const go = await modernClient('alice', 'Go-http-client/1.1');
    const rounds = driverRounds();
    const pending = (await go.callTool(
      { name: 'refund', arguments: { order: 'LW-G-1' } },
      { onprogress: rounds.onprogress },
    )) as ToolResult;
    expect(pendingOf(pending)).toMatchObject({ status: 'pending', tool: 'refund' });
    expect(rounds.seen()).toBe(2);
  }, 60_000);

  it('joins a repeated identical call to the one still waiting: the approver is asked once, both calls get the outcome', async () => {
    const alice = await modernClient('alice');
    const first = alice.callTool({ name: 'refund', arguments: { order: 'LW-R-1' } });
    await until('the question on LW-R-1', async () => (await questionsOn('LW-R-1')).length === 1 || undefined);
    const again = alice.callTool({ name: 'refund', arguments: { order: 'LW-R-1' } });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await questionsOn('LW-R-1')).toHaveLength(1);
    await danaApproves('LW-R-1');
    const results = (await Promise.all([first, again])) as ToolResult[];
    // Both are alice's one call: its result, or (past the client's loop) the pending result of that one exchange.
    const [exchange] = (await questionsOn('LW-R-1')).map((q) => q.exchange_id);
    for (const result of results) {
      const handle = pendingOf(result)?.handle;
      if (handle) expect(handle).toBe(exchange);
      else expect(result.content[0]!.text).toBe('accept for LW-R-1 by dana via api (ok)');
    }
    // Another caller's identical call is its own: it is asked apart.
    const bob = await modernClient('bob');
    const bobs = bob.callTool({ name: 'refund', arguments: { order: 'LW-R-1' } });
    await until('bob’s question on LW-R-1', async () => (await questionsOn('LW-R-1')).length === 2 || undefined);
    expect(pendingOf((await bobs) as ToolResult)?.handle).not.toBe(exchange);
  }, 60_000);

  it('joins a call by its idempotency key, and refuses the key for other arguments', async () => {
    const alice = await modernClient('alice');
    const keyed = (order: string) =>
      ({ name: 'refund_each', arguments: { order }, idempotencyKey: 'order-K-1' }) as {
        name: string;
        arguments: Record<string, unknown>;
      };
    const first = alice.callTool(keyed('LW-K-1')) as Promise<ToolResult>;
    await until('the question on LW-K-1', async () => (await questionsOn('LW-K-1')).length === 1 || undefined);
    const refused = await alice.callTool(keyed('LW-K-2')).then(
      () => undefined,
      (error: { code?: number; message: string }) => ({ code: error.code, message: error.message }),
    );
    expect(refused).toEqual({
      code: -32602,
      message: expect.stringContaining('params.idempotencyKey was used for another call'),
    });
    const pending = await first;
    const handle = pendingOf(pending)!.handle;
    // The same key again, after the first call's loop gave up: the same exchange, nobody asked twice.
    const again = alice.callTool(keyed('LW-K-1')) as Promise<ToolResult>;
    await danaApproves('LW-K-1');
    expect((await again).content[0]!.text).toBe('accept for LW-K-1 by dana via api (ok)');
    expect(await questionsOn('LW-K-1')).toEqual([expect.objectContaining({ exchange_id: handle })]);
    // Once it has ended, the key still names it: its outcome again, nothing started.
    const replay = (await alice.callTool(keyed('LW-K-1'))) as ToolResult;
    expect(replay.content[0]!.text).toBe('accept for LW-K-1 by dana via api (ok)');
    expect(await questionsOn('LW-K-1')).toHaveLength(1);
  }, 60_000);

  it('starts an identical call apart when its tool says identical calls are separate requests', async () => {
    const alice = await modernClient('alice');
    const calls = [0, 1].map(() => alice.callTool({ name: 'refund_each', arguments: { order: 'LW-E-1' } }));
    await until('two questions on LW-E-1', async () => (await questionsOn('LW-E-1')).length === 2 || undefined);
    const pending = (await Promise.all(calls)) as ToolResult[];
    expect(pending.every((r) => pendingOf(r)?.status === 'pending')).toBe(true);
    expect(pending[0]!.content[0]!.text).not.toContain('again with the same arguments');
  }, 60_000);

  it('joins a repeat while the handler works with the answers, and never asks its form again', async () => {
    const first = await modernClient('alice', undefined, ['Ada']);
    const call = first.callTool({ name: 'slow_greet', arguments: {} });
    // The form is answered at once; the second round takes its time.
    await until('the slow round started', async () => {
      const { rows } = await stack.service.pool.query<{ rounds: number }>(
        `SELECT rounds FROM exchanges WHERE target = 'slow_greet' AND status = 'running'`,
      );
      return rows[0]?.rounds === 1 ? true : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The same call from another of alice's clients joins it: its result, and no form (it has none to give).
    const again = await modernClient('alice');
    const joined = (await again.callTool({ name: 'slow_greet', arguments: {} })) as ToolResult;
    expect(joined.content[0]!.text).toBe('Hello, Ada!');
    expect(((await call) as ToolResult).content[0]!.text).toBe('Hello, Ada!');
  }, 60_000);

  it("leaves a call a repeat joined to the loop that started it: the joiner's last leg withdraws nothing", async () => {
    const alice = await modernClient('alice');
    const first = alice.callTool({ name: 'refund_strict', arguments: { order: 'LW-S-2' } }) as Promise<ToolResult>;
    await until('the question on LW-S-2', async () => (await questionsOn('LW-S-2')).length === 1 || undefined);
    // A Go client's loop joins it and reaches its own last leg (its third state-only result) first.
    const go = await modernClient('alice', 'Go-http-client/1.1');
    const joined = (await go.callTool({ name: 'refund_strict', arguments: { order: 'LW-S-2' } })) as ToolResult;
    const [question] = await questionsOn('LW-S-2');
    expect(pendingOf(joined)).toMatchObject({ status: 'pending', handle: question!.exchange_id });
    expect(await exchangeState(question!.exchange_id)).toEqual({ status: 'running', questions: ['waiting'] });
    // The loop that started it withdraws it at its own last leg.
    expect((await first).content[0]!.text).toMatch(/^The call to "refund_strict" was withdrawn/);
  }, 60_000);
});
