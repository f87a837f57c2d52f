/**
 * Upstreams that fail the gateway: answering 5xx then recovering, refusing it (401, 403), answering
 * garbage, an answer too large to hold (as JSON, or inside an SSE stream), a stream that never
 * answers, one that asks again whatever it is answered (ended at the round cap), an ask its caller
 * never answers (ended at the round timeout), and one down long enough to open its circuit. The server is the official TypeScript SDK 2.x server, made to
 * misbehave on chosen tools (test/support/sdk-upstream.ts). Each call gets a clear tool error or its
 * result, retried only where a retry may help (each attempt with the round's idempotency key), and
 * every exchange ends; the worker's metrics count and time each call by upstream and outcome, and
 * say while a circuit is open.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { workerRegistry } from '../../lib/metrics/worker-metrics';
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type Misbehave, type ReceivedCall, type SdkUpstream } from '../support/sdk-upstream';
import { useTestService } from '../support/test-service';
import { rawCall } from '../support/raw-mcp';
import { exchangeStatus } from '../support/exchange-rows';
import { until } from '../support/until';
import { EXCHANGE_EXPIRED } from '../../lib/exchange/ending-codes';

type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };
const textOf = (result: unknown) => (result as ToolResult).content[0]?.text ?? '';

const reply = (res: Parameters<Misbehave>[1], status: number, body: string, type = 'application/json') =>
  res.writeHead(status, { 'content-type': type }).end(body);
const answer = (id: string | number, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });

/** An ask for a form, again, as a 2026-07-28 server returns it: it never gives a result. */
const askAgain = {
  resultType: 'input_required',
  inputRequests: {
    again: {
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Once more?', requestedSchema: { type: 'object', properties: {} } },
    },
  },
};

/** A result over the upstreams' `maxResultBytes` (1 MiB by default), and their envelope's allowance. */
const hugeResult = { content: [{ type: 'text', text: 'x'.repeat(1_200_000) }] };

const misbehave: Misbehave = (call, res, attempt, id) => {
  switch (call.name) {
    case 'flaky':
      if (attempt > 2) return false;
      reply(res, 503, 'busy', 'text/plain');
      return true;
    case 'unauthorized':
      reply(res, 401, '{"error":"invalid_token"}');
      return true;
    case 'forbidden':
      reply(res, 403, '{"error":"insufficient_scope"}');
      return true;
    case 'garbled':
      reply(res, 200, '{"jsonrpc":"2.0","id":');
      return true;
    case 'huge':
      reply(res, 200, answer(id, hugeResult));
      return true;
    case 'huge_stream':
      reply(res, 200, `event: message\ndata: ${answer(id, hugeResult)}\n\n`, 'text/event-stream');
      return true;
    case 'endless': {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write(': still here\n\n'), 100);
      res.on('close', () => clearInterval(timer));
      return true;
    }
    case 'pester':
      reply(res, 200, answer(id, askAgain));
      return true;
    case 'broken':
      reply(res, 500, 'down', 'text/plain');
      return true;
    default:
      return false;
  }
};

let upstream: SdkUpstream;
/** A round waits this long for the caller's answers to an upstream's ask. */
const ROUND_TIMEOUT_MS = 3_000;
const env: Record<string, string> = { HANDLERS: 'none', ROUND_TIMEOUT_MS: String(ROUND_TIMEOUT_MS) };
beforeAll(async () => {
  upstream = await startSdkUpstream({
    extraTools: [
      'flaky',
      'unauthorized',
      'forbidden',
      'garbled',
      'huge',
      'huge_stream',
      'endless',
      'pester',
      'broken',
      'fine',
    ],
    misbehave,
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hostile-')), 'upstreams.json');
  writeFileSync(
    file,
    JSON.stringify({
      upstreams: [
        { name: 'retrying', url: upstream.url, toolPrefix: 'r_', callTimeoutMs: 1_500, circuitFailures: 100 },
        { name: 'strict', url: upstream.url, toolPrefix: 's_', retries: 0, circuitFailures: 2, circuitOpenMs: 3_000 },
      ],
    }),
  );
  env.UPSTREAMS_FILE = file;
});
afterAll(() => upstream?.close());
const service = useTestService(env);

async function call(tool: string): Promise<ToolResult> {
  const client = await connectModernClient(service.url, {});
  try {
    return (await client.callTool({ name: tool, arguments: {} })) as ToolResult;
  } finally {
    await client.close();
  }
}

/** The calls the upstream got for its tool `name` since `since` (an index into its calls). */
const callsOf = (name: string, since = 0) => upstream.calls.slice(since).filter((c) => c.name === name);
const keysOf = (calls: ReceivedCall[]) => new Set(calls.map((c) => c._meta?.idempotencyKey));

/** The worker's sample `name{labels}` (labels as the registry writes them), 0 when there is none. */
async function sample(name: string, labels: string): Promise<number> {
  const text = await workerRegistry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line ? Number(line.split(' ').pop()) : 0;
}

const metric = (upstreamName: string, outcome: string) =>
  sample('mcp_upstream_calls_total', `upstream="${upstreamName}",outcome="${outcome}"`);

describe('upstreams that fail the gateway', () => {
  it('retries a server that answers 5xx and recovers, with the same key: the caller gets its result', async () => {
    const result = await call('r_flaky');
    expect(textOf(result)).toBe('ok flaky');
    expect(callsOf('flaky')).toHaveLength(3);
    expect(keysOf(callsOf('flaky')).size).toBe(1);
  });

  it.each([
    ['unauthorized', 401],
    ['forbidden', 403],
  ])('does not retry a server that refuses the gateway (%s, %i): the caller reads why', async (tool, status) => {
    const result = await call(`r_${tool}`);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      new RegExp(`^The upstream server retrying could not be reached for ${tool}: .*${status}`),
    );
    expect(callsOf(tool)).toHaveLength(1);
  });

  it('gives a tool error for an answer that is not JSON, after its retries', async () => {
    const result = await call('r_garbled');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The upstream server retrying could not be reached for garbled: /);
    expect(callsOf('garbled')).toHaveLength(3);
  });

  it.each([
    ['as one JSON answer', 'huge'],
    ['inside its SSE stream', 'huge_stream'],
  ])('refuses an answer over maxResultBytes %s without holding it, and does not retry it', async (_, tool) => {
    const started = Date.now();
    const result = await call(`r_${tool}`);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `The upstream server retrying could not be reached for ${tool}: its response is over 1114112 bytes`,
    );
    expect(callsOf(tool)).toHaveLength(1);
    // At once: not after the upstream's callTimeoutMs (1.5 s), as a stream that never answers.
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('gives up on a stream that never answers at callTimeoutMs, each attempt', async () => {
    const started = Date.now();
    const result = await call('r_endless');
    expect(result.isError).toBe(true);
    expect(callsOf('endless')).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 1_500);
  });

  it('ends an exchange whose upstream asks again whatever it is answered at the round cap (-32011)', async () => {
    let asked = 0;
    const client = await connectModernClient(service.url, () => {
      asked += 1;
      return { action: 'accept', content: {} };
    });
    const capped = await client.callTool({ name: 'r_pester', arguments: {} }).then(
      () => undefined,
      (error: { code?: number }) => error.code,
    );
    await client.close();
    expect(capped).toBe(-32011);
    // MAX_ROUNDS (8) asks answered, each a round that called the upstream with its answer.
    expect(asked).toBe(8);
    expect(callsOf('pester')).toHaveLength(9);
    expect(callsOf('pester')[8]!.inputResponses).toEqual({ again: { action: 'accept', content: {} } });
  });

  it("ends at the round timeout, expired, an exchange whose caller never answers the upstream's ask; a late answer is refused, never forwarded", async () => {
    const order = `T-${Date.now()}`;
    const asked = await rawCall(service.url, 'tools/call', { name: 'r_confirm_order', arguments: { order } });
    expect(asked.body.result?.resultType).toBe('input_required');
    const orderCalls = () => upstream.calls.filter((c) => c.arguments?.order === order);
    const exchangeId = (orderCalls()[0]!._meta?.idempotencyKey as string).split('/')[0]!;
    await until(
      'the round timeout',
      async () => ((await exchangeStatus(service.pool, exchangeId)) === 'expired' ? true : undefined),
      ROUND_TIMEOUT_MS + 15_000,
    );
    const late = await rawCall(service.url, 'tools/call', {
      name: 'r_confirm_order',
      arguments: { order },
      requestState: asked.body.result!.requestState,
      inputResponses: { confirm: { action: 'accept', content: { name: 'Late' } } },
    });
    expect(late.body.error?.code).toBe(EXCHANGE_EXPIRED);
    expect(orderCalls()).toHaveLength(1);
  }, 30_000);

  it("opens a failing upstream's circuit: its calls then fail at once, until a trial call succeeds", async () => {
    const before = upstream.calls.length;
    for (let i = 0; i < 2; i++) expect((await call('s_broken')).isError).toBe(true);
    expect(callsOf('broken', before)).toHaveLength(2);
    const opened = await call('s_fine');
    expect(textOf(opened)).toMatch(
      /^The upstream server strict could not be reached for fine: its circuit is open after 2 failed calls in a row, until /,
    );
    expect(callsOf('fine', before)).toHaveLength(0);
    expect(await metric('strict', 'circuit_open')).toBe(1);
    expect(await sample('mcp_upstream_circuit_open', 'upstream="strict"')).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    expect(textOf(await call('s_fine'))).toBe('ok fine');
    expect(await sample('mcp_upstream_circuit_open', 'upstream="strict"')).toBe(0);
    expect(await metric('strict', 'failed')).toBe(2);
    expect(await metric('retrying', 'result')).toBeGreaterThanOrEqual(1);
    // Each call tried is timed, by upstream and outcome; one not tried (its circuit open) is not.
    const timed = (upstreamName: string, outcome: string) =>
      sample('mcp_upstream_call_duration_seconds_count', `upstream="${upstreamName}",outcome="${outcome}"`);
    expect(await timed('strict', 'failed')).toBe(2);
    expect(await timed('strict', 'result')).toBe(1);
    expect(await timed('retrying', 'ask')).toBe(await metric('retrying', 'ask'));
    expect(await timed('retrying', 'ask')).toBeGreaterThanOrEqual(9);
  });
});
