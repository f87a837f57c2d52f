/**
 * Waits longer than a handshake-era client waits, with the official TypeScript clients (2.x
 * negotiating 2025-11-25, and 1.x), real tokens, a real Temporal and Postgres. Their requests time
 * out (60 s by default; 10 s here) and cancel the call, which withdraws its question; so a call
 * still waiting at LEGACY_PENDING_AFTER_MS (3 s here) is answered with the pending result, and
 * `await_answer` (listed in the session) or the same call again waits for the one outcome, also
 * from a later session. A detached call still takes its client's answers; a tool that takes an error instead is never
 * answered pending; nobody else can wait on a handle.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ClientName, OAuthStack } from '../support/oauth-stack';
import { until } from '../support/until';
import { longWaitProbes, useLongWaitStack, pendingOf, type ToolResult } from './long-wait-support';

const PENDING_AFTER_MS = 3_000;
/** Stands for a host's 60 s request timeout: the pending result comes well before it. */
const CLIENT_TIMEOUT_MS = 10_000;
const theStack = useLongWaitStack({ LEGACY_PENDING_AFTER_MS: String(PENDING_AFTER_MS) });
let stack: OAuthStack;
beforeAll(() => {
  stack = theStack();
});
const { danaApproves, questionsOn, exchangeState } = longWaitProbes(() => stack);

/** An official 2.x client as hosts use it: it negotiates, and the server it meets speaks 2025-11-25. */
async function sessionClient(name: ClientName) {
  const client = new Client({ name: 'desk', version: '1.0.0' }, { capabilities: {} });
  const authorization = await stack.bearer(name);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(stack.service.url), { requestInit: { headers: { authorization } } }),
  );
  return client;
}
const timeout = { timeout: CLIENT_TIMEOUT_MS };

/** `await_answer` again while the call is still pending (each wait lasts PENDING_AFTER_MS), up to its outcome. */
async function outcomeOf(alice: Client, handle: string): Promise<ToolResult> {
  for (;;) {
    const result = (await alice.callTool({ name: 'await_answer', arguments: { handle } }, timeout)) as ToolResult;
    if (!pendingOf(result)) return result;
    expect(pendingOf(result)!.handle).toBe(handle);
  }
}

describe('a wait longer than a handshake-era client waits', () => {
  it('lists await_answer beside the tools', async () => {
    const alice = await sessionClient('alice');
    const { tools } = await alice.listTools();
    expect(tools.map((t) => t.name)).toEqual(['slow_greet', 'refund', 'refund_strict', 'refund_each', 'await_answer']);
    await alice.close();
  });

  it('answers the call with the pending result before the client gives up; await_answer returns its own result', async () => {
    const alice = await sessionClient('alice');
    const started = Date.now();
    const pending = (await alice.callTool({ name: 'refund', arguments: { order: 'LLW-L-1' } }, timeout)) as ToolResult;
    expect(Date.now() - started).toBeLessThan(CLIENT_TIMEOUT_MS);
    const meta = pendingOf(pending);
    expect(pending.isError).toBe(true);
    expect(meta).toMatchObject({ status: 'pending', tool: 'refund', awaitTool: 'await_answer' });
    expect(meta!.waitingFor).toMatch(/^Waiting for an answer from a holder of refunds:approve/);
    const text = pending.content[0]!.text;
    expect(text).toContain('nothing failed');
    expect(text).toContain(`call the tool "await_answer" with {"handle":"${meta!.handle}"}`);
    expect(await exchangeState(meta!.handle)).toEqual({ status: 'running', questions: ['waiting'] });

    // Still waiting: pending again, in the same words.
    const again = (await alice.callTool(
      { name: 'await_answer', arguments: { handle: meta!.handle } },
      timeout,
    )) as ToolResult;
    expect(pendingOf(again)).toMatchObject({ status: 'pending', handle: meta!.handle, tool: 'refund' });

    // Someone else cannot wait on it, nor tell it from a handle that names nothing.
    const bob = await sessionClient('bob');
    const refusals = await Promise.all(
      [meta!.handle, '00000000-0000-4000-8000-000000000000'].map((handle) =>
        bob.callTool({ name: 'await_answer', arguments: { handle } }).then(
          () => undefined,
          (error: { code?: number; message: string }) => ({ code: error.code, message: error.message }),
        ),
      ),
    );
    expect(refusals).toEqual(
      Array(2).fill({ code: -32602, message: expect.stringContaining('names no pending call of yours') }),
    );

    const awaited = outcomeOf(alice, meta!.handle);
    await danaApproves('LLW-L-1');
    const result = await awaited;
    expect(result.isError).toBeFalsy();
    expect(result.content[0]!.text).toBe('accept for LLW-L-1 by dana via api (ok)');
    const replay = (await alice.callTool({ name: 'await_answer', arguments: { handle: meta!.handle } })) as ToolResult;
    expect(replay.content[0]!.text).toBe('accept for LLW-L-1 by dana via api (ok)');
    expect(await exchangeState(meta!.handle)).toEqual({ status: 'completed', questions: ['answered'] });
    await Promise.all([alice.close(), bob.close()]);
  }, 60_000);

  it('keeps the question of a call answered pending when its session ends: await_answer in a new session returns it', async () => {
    // As LangChain's Python adapters do by default: a session for each call, ended once it is answered.
    const first = new Client({ name: 'desk', version: '1.0.0' }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(stack.service.url), {
      requestInit: { headers: { authorization: await stack.bearer('alice') } },
    });
    await first.connect(transport);
    const pending = (await first.callTool({ name: 'refund', arguments: { order: 'LLW-LE-1' } }, timeout)) as ToolResult;
    const handle = pendingOf(pending)!.handle;
    await transport.terminateSession(); // DELETE /mcp
    await first.close();
    expect(await exchangeState(handle)).toEqual({ status: 'running', questions: ['waiting'] });

    const next = await sessionClient('alice');
    const awaited = outcomeOf(next, handle);
    await danaApproves('LLW-LE-1');
    expect((await awaited).content[0]!.text).toBe('accept for LLW-LE-1 by dana via api (ok)');
    await next.close();
  }, 60_000);

  it("takes a 1.x client's answer to its own form after the call was answered pending", async () => {
    const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    let forms = 0;
    // The user takes 5 s over the form: longer than the call is held.
    client.setRequestHandler(ElicitRequestSchema, async () => {
      forms += 1;
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return { action: 'accept', content: { name: 'Ada' } };
    });
    const authorization = await stack.bearer('alice');
    await client.connect(
      new LegacyTransport(new URL(stack.service.url), { requestInit: { headers: { authorization } } }),
    );
    const pending = await client.callTool({ name: 'slow_greet', arguments: {} }, CallToolResultSchema, timeout);
    const handle = pendingOf(pending)!.handle;
    expect(pendingOf(pending)!.waitingFor).toContain('Your name?');
    // The form's answer lands on the running exchange; await_answer gets the greeting, once it is there.
    const greeting = await until(
      'the greeting',
      async () => {
        const result = await client.callTool(
          { name: 'await_answer', arguments: { handle } },
          CallToolResultSchema,
          timeout,
        );
        return pendingOf(result) ? undefined : (result as ToolResult);
      },
      30_000,
    );
    expect(greeting.content[0]!.text).toBe('Hello, Ada!');
    expect(forms).toBe(1);
    await client.close();
  }, 60_000);

  it('joins the same call repeated after its pending result: the approver is asked once', async () => {
    const alice = await sessionClient('alice');
    const pending = (await alice.callTool({ name: 'refund', arguments: { order: 'LLW-LR-1' } }, timeout)) as ToolResult;
    const handle = pendingOf(pending)!.handle;
    const repeated = alice.callTool({ name: 'refund', arguments: { order: 'LLW-LR-1' } }, timeout);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await danaApproves('LLW-LR-1');
    // The repeat is the first call: its result, or (on a slow machine) its pending result again.
    const first = (await repeated) as ToolResult;
    expect(pendingOf(first)?.handle ?? handle).toBe(handle);
    const outcome = pendingOf(first) ? await outcomeOf(alice, pendingOf(first)!.handle) : first;
    expect(outcome.content[0]!.text).toBe('accept for LLW-LR-1 by dana via api (ok)');
    expect(await questionsOn('LLW-LR-1')).toEqual([expect.objectContaining({ exchange_id: handle })]);
    await alice.close();
  }, 60_000);

  it('never answers pending a call whose tool takes an error instead: it waits as long as its client does', async () => {
    const alice = await sessionClient('alice');
    const call = alice.callTool({ name: 'refund_strict', arguments: { order: 'LLW-LS-1' } }, timeout);
    await new Promise((resolve) => setTimeout(resolve, PENDING_AFTER_MS + 1_500));
    await danaApproves('LLW-LS-1');
    const result = (await call) as ToolResult;
    expect(pendingOf(result)).toBeUndefined();
    expect(result.content[0]!.text).toBe('accept for LLW-LS-1 by dana via api (ok)');
    await alice.close();
  }, 60_000);
});
