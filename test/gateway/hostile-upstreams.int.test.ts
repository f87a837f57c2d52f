/**
 * Upstreams that fail the gateway: answering 5xx then recovering, refusing it (401), answering
 * garbage, an answer too large to hold (as JSON, or inside an SSE stream), a stream that never
 * answers, and one down long enough to open its circuit. The server is the official TypeScript SDK 2.x server, made to misbehave on
 * chosen tools (test/support/sdk-upstream.ts). Each call gets a clear tool error or its result,
 * retried only where a retry may help (each attempt with the round's idempotency key), and every
 * exchange ends; the worker's metrics count each call by upstream and outcome.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { workerRegistry } from '../../lib/metrics/worker-metrics';
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type Misbehave, type ReceivedCall, type SdkUpstream } from '../support/sdk-upstream';
import { useTestService } from '../support/test-service';

type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };
const textOf = (result: unknown) => (result as ToolResult).content[0]?.text ?? '';

const reply = (res: Parameters<Misbehave>[1], status: number, body: string, type = 'application/json') =>
  res.writeHead(status, { 'content-type': type }).end(body);
const answer = (call: ReceivedCall, result: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id: (call as unknown as { id?: number }).id ?? 1, result });

/** A result over the upstreams' `maxResultBytes` (1 MiB by default), and their envelope's allowance. */
const hugeResult = { content: [{ type: 'text', text: 'x'.repeat(1_200_000) }] };

const misbehave: Misbehave = (call, res, attempt) => {
  switch (call.name) {
    case 'flaky':
      if (attempt > 2) return false;
      reply(res, 503, 'busy', 'text/plain');
      return true;
    case 'unauthorized':
      reply(res, 401, '{"error":"invalid_token"}');
      return true;
    case 'garbled':
      reply(res, 200, '{"jsonrpc":"2.0","id":');
      return true;
    case 'huge':
      reply(res, 200, answer(call, hugeResult));
      return true;
    case 'huge_stream':
      reply(res, 200, `event: message\ndata: ${answer(call, hugeResult)}\n\n`, 'text/event-stream');
      return true;
    case 'endless': {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write(': still here\n\n'), 100);
      res.on('close', () => clearInterval(timer));
      return true;
    }
    case 'broken':
      reply(res, 500, 'down', 'text/plain');
      return true;
    default:
      return false;
  }
};

let upstream: SdkUpstream;
const env: Record<string, string> = { HANDLERS: 'none' };
beforeAll(async () => {
  upstream = await startSdkUpstream({
    extraTools: ['flaky', 'unauthorized', 'garbled', 'huge', 'huge_stream', 'endless', 'broken', 'fine'],
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

async function metric(upstreamName: string, outcome: string): Promise<number> {
  const text = await workerRegistry.metrics();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`mcp_upstream_calls_total{upstream="${upstreamName}",outcome="${outcome}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('upstreams that fail the gateway', () => {
  it('retries a server that answers 5xx and recovers, with the same key: the caller gets its result', async () => {
    const result = await call('r_flaky');
    expect(textOf(result)).toBe('ok flaky');
    expect(callsOf('flaky')).toHaveLength(3);
    expect(keysOf(callsOf('flaky')).size).toBe(1);
  });

  it('does not retry a server that refuses the gateway (401): the caller reads why', async () => {
    const result = await call('r_unauthorized');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The upstream server retrying could not be reached for unauthorized: .*401/);
    expect(callsOf('unauthorized')).toHaveLength(1);
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
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    expect(textOf(await call('s_fine'))).toBe('ok fine');
    expect(await metric('strict', 'failed')).toBe(2);
    expect(await metric('retrying', 'result')).toBeGreaterThanOrEqual(1);
  });
});
