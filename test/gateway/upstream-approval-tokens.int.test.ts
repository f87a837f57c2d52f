/**
 * The rule test/answers/addressed-questions.int.test.ts holds for local handlers, for the gateway's
 * approval of an upstream call: an agent holding an addressee's MCP bearer token (dana's, with the
 * scope the approval is addressed to, for /mcp) answers nothing through the answer API; its attempt
 * is refused (`client-token`), leaves signed evidence, and the call is not forwarded. The addressee
 * itself, as a service with its own token for the answer API, approves, and the call goes on.
 * The upstream is declared with `forwardCaller`: the call forwarded tells it who the caller is, in
 * `_meta["io.durable-mcp/caller"]`, and never carries the caller's token.
 * Real tokens from a real authorization server, a real SDK upstream, Temporal and Postgres.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import type { OAuthStack } from '../support/oauth-stack';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import { until } from '../support/until';
import { startAnsweringStack, type AnsweringStack } from '../answers/answering-stack';

let upstream: SdkUpstream;
let answering: AnsweringStack;
let stack: OAuthStack;

beforeAll(async () => {
  upstream = await startSdkUpstream();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'approval-tokens-')), 'upstreams.json');
  const policy = { name: 'refund desk', tools: ['add'], approve: { anyOf: [{ scope: 'refunds:approve' }] } };
  writeFileSync(
    file,
    JSON.stringify({
      upstreams: [{ name: 'shop', url: upstream.url, toolPrefix: 'shop_', forwardCaller: true, policies: [policy] }],
    }),
  );
  answering = await startAnsweringStack({ name: 'none', tools: [] }, { UPSTREAMS_FILE: file });
  ({ stack } = answering);
}, 120_000);
afterAll(async () => {
  await answering?.close();
  await upstream?.close();
});

const answersUrl = () => stack.service.url.replace(/\/mcp$/, '/answers/api/questions');

function answerApiWith(authorization: string) {
  const headers = { authorization, 'content-type': 'application/json' };
  return {
    list: async () =>
      (await (await fetch(answersUrl(), { headers })).json()) as {
        questions: Array<{ id: string; exchangeId: string; target: string; shownDigest: string }>;
      },
    answer: async (id: string, body: Record<string, unknown>) => {
      const res = await fetch(`${answersUrl()}/${id}`, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { taken?: boolean; error?: { code: string } } };
    },
  };
}

describe("the gateway's approval of an upstream call", () => {
  it("is never answered by an agent holding an addressee's MCP token; the addressee's own service token answers it", async () => {
    const alice = new Client(
      { name: 'desk', version: '1.0.0' },
      { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await alice.connect(
      new StreamableHTTPClientTransport(new URL(stack.service.url), {
        requestInit: { headers: { authorization: await stack.bearer('alice') } },
      }),
    );
    const call = alice.callTool(
      { name: 'shop_add', arguments: { a: 40, b: 2 } },
      { timeout: 60_000, resetTimeoutOnProgress: true, onprogress: () => undefined },
    );
    call.catch(() => undefined); // awaited below
    const dana = answerApiWith(await stack.serviceBearer('dana', 'refunds:approve'));
    const question = await until('the approval in dana’s inbox', async () =>
      (await dana.list()).questions.find((q) => q.target === 'shop_add'),
    );

    // The agent holds dana's token for /mcp, with the very scope the approval is addressed to.
    const agent = answerApiWith(await stack.bearer('dana', { scope: 'mcp refunds:approve' }));
    const attempt = { action: 'accept', content: {}, shownDigest: question.shownDigest };
    expect(await agent.answer(question.id, attempt)).toMatchObject({
      status: 403,
      body: { error: { code: 'client-token' } },
    });
    const { rows: waiting } = await stack.service.pool.query(`SELECT status FROM questions WHERE id = $1`, [
      question.id,
    ]);
    expect(waiting[0]).toEqual({ status: 'waiting' });
    expect(upstream.calls.filter((c) => c.arguments?.a === 40)).toEqual([]);

    // Dana, as a service with its own token for the answer API, approves: the call is forwarded once.
    expect((await dana.answer(question.id, attempt)).body.taken).toBe(true);
    expect((await call).content).toEqual([{ type: 'text', text: '42' }]);
    const forwarded = upstream.calls.filter((c) => c.arguments?.a === 40);
    expect(forwarded).toHaveLength(1);
    // Who called, for the upstream to read (forwardCaller), and never the caller's token.
    expect(forwarded[0]!._meta?.['io.durable-mcp/caller']).toEqual({
      id: expect.stringContaining('alice'),
      subject: 'alice',
      kind: 'service', // alice's token is her client's own (client credentials)
      issuer: stack.as.issuer,
      clientId: expect.any(String),
    });
    expect(forwarded[0]!.authorization).toBeUndefined();
    await alice.close();

    // The refused attempt and the approval are signed entries of the exchange, in that order.
    const { rows: entries } = await stack.service.pool.query<{ jws: string }>(
      'SELECT jws FROM evidence_entries WHERE exchange_id = $1 ORDER BY exchange_seq',
      [question.exchangeId],
    );
    expect(entries.map((entry) => (decodeJwt(entry.jws) as { decision: unknown }).decision)).toEqual([
      expect.objectContaining({ outcome: 'refused', refusal: 'client-token' }),
      expect.objectContaining({ outcome: 'taken', action: 'accept' }),
    ]);
  }, 90_000);
});
