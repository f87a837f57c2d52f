/**
 * An upstream changes its tools under a running exchange: the official TypeScript SDK 2.x server
 * (test/support/sdk-upstream.ts) drops a tool while an exchange of that tool waits on its form ask,
 * then the caller answers. Two upstreams, declared in UPSTREAMS_FILE, show both orders it can
 * happen in: `kept` is listed again only once a day, so the gateway still lists the tool and
 * forwards the answer, and the upstream's own "not found" comes back; `fresh` is listed again every
 * second, so the gateway has dropped the tool before the answer comes. Either way the caller of
 * either era gets a JSON-RPC error saying so at once, the exchange ends, and nothing is retried.
 * A tool an upstream adds is listed after its refresh.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import { startTestService, type TestService } from '../support/test-service';
import { exchangeStatus } from '../support/exchange-rows';
import { until } from '../support/until';

let kept: SdkUpstream;
let fresh: SdkUpstream;
let service: TestService;

beforeAll(async () => {
  [kept, fresh] = await Promise.all([startSdkUpstream(), startSdkUpstream()]);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'upstreams-')), 'upstreams.json');
  writeFileSync(
    file,
    JSON.stringify({
      upstreams: [
        { name: 'kept', url: kept.url, toolPrefix: 'kept_', refreshEveryMs: 86_400_000 },
        { name: 'fresh', url: fresh.url, toolPrefix: 'fresh_', refreshEveryMs: 1_000 },
      ],
    }),
  );
  service = await startTestService({ UPSTREAMS_FILE: file, HANDLERS: 'none' });
}, 120_000);
afterAll(async () => {
  await service?.close();
  await Promise.all([kept?.close(), fresh?.close()]);
});

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** The tool names a new client is listed (a client keeps the listing it read). */
async function listedNames(): Promise<string[]> {
  const client = await connectModernClient(service.url, {});
  const { tools } = await client.listTools();
  await client.close();
  return tools.map((tool) => tool.name);
}

/** The exchange a call of `upstream` with these arguments started (its idempotency key names it). */
const exchangeOf = (upstream: SdkUpstream, argument: string, value: string) =>
  until(`the upstream call with ${argument}=${value}`, async () => {
    const call = upstream.calls.find((c) => c.arguments?.[argument] === value);
    return (call?._meta?.idempotencyKey as string | undefined)?.split('/')[0];
  });

const callsWith = (upstream: SdkUpstream, argument: string, value: string) =>
  upstream.calls.filter((call) => call.arguments?.[argument] === value);

/** Waits until the exchange is no longer running, and returns its status. */
const endedStatus = (id: string) =>
  until(`exchange ${id} to end`, async () => {
    const status = await exchangeStatus(service.pool, id);
    return status === 'running' ? undefined : status;
  });

type Outcome = { code?: number; message?: string; result?: unknown };
const settle = (call: Promise<unknown>): Promise<Outcome> =>
  call.then(
    (result) => ({ result }),
    (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }),
  );

/**
 * What the caller of `tool` gets: the upstream's own "not found" (the SDK's -32602) named as the
 * upstream's, when the gateway still listed the tool and forwarded the answer; the service's own
 * unknown-tool error, when its listing had dropped the tool before the answer came.
 */
const modernError = (name: string, tool: string) =>
  name === 'kept'
    ? { code: -32602, message: `upstream kept: Tool ${tool} not found` }
    : { code: -32602, message: `Unknown tool: fresh_${tool}` };

describe('an upstream changes its tools under a running exchange', () => {
  it.each([
    ['kept', () => kept],
    ['fresh', () => fresh],
  ])(
    '%s: a 2026-07-28 caller answering a form of a tool that was removed',
    async (name, upstreamOf) => {
      const upstream = upstreamOf();
      const asked = gate();
      const answer = gate();
      const client = await connectModernClient(service.url, async () => {
        asked.open();
        await answer.opened;
        return { action: 'accept', content: { name: 'Ada' } };
      });
      const call = settle(client.callTool({ name: `${name}_confirm_order`, arguments: { order: `${name}-M` } }));
      await asked.opened;
      const exchangeId = await exchangeOf(upstream, 'order', `${name}-M`);
      upstream.removeTool('confirm_order');
      if (name === 'fresh')
        await until('the refresh that drops the tool', async () =>
          (await listedNames()).includes('fresh_confirm_order') ? undefined : true,
        );
      answer.open();
      expect(await call).toEqual(modernError(name, 'confirm_order'));
      expect(await endedStatus(exchangeId)).toBe('failed');
      // The upstream was called for the answer only while the gateway still listed the tool, once.
      expect(callsWith(upstream, 'order', `${name}-M`)).toHaveLength(name === 'kept' ? 2 : 1);
      await client.close();
    },
    60_000,
  );

  it.each([
    ['kept', () => kept],
    ['fresh', () => fresh],
  ])(
    '%s: a 2025-11-25 caller answering a form of a tool that was removed',
    async (name, upstreamOf) => {
      const upstream = upstreamOf();
      const asked = gate();
      const answer = gate();
      const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, async () => {
        asked.open();
        await answer.opened;
        return { action: 'accept', content: { seats: 2 } };
      });
      await client.connect(new LegacyTransport(new URL(service.url)));
      const call = settle(
        client.callTool({ name: `${name}_reserve`, arguments: { show: `${name}-L` } }, CallToolResultSchema),
      );
      await asked.opened;
      const exchangeId = await exchangeOf(upstream, 'show', `${name}-L`);
      upstream.removeTool('reserve');
      if (name === 'fresh')
        await until('the refresh that drops the tool', async () =>
          (await listedNames()).includes('fresh_reserve') ? undefined : true,
        );
      answer.open();
      // The 1.x client puts "MCP error <code>: " before the message it was sent.
      const { code, message } = modernError(name, 'reserve');
      expect(await call).toEqual({ code, message: `MCP error ${code}: ${message}` });
      expect(await endedStatus(exchangeId)).toBe('failed');
      expect(callsWith(upstream, 'show', `${name}-L`)).toHaveLength(name === 'kept' ? 2 : 1);
      await client.close();
    },
    60_000,
  );

  it('lists a tool the upstream added once the gateway has listed it again', async () => {
    expect(await listedNames()).not.toContain('fresh_gift_wrap');
    fresh.addTool('gift_wrap');
    await until('the refresh that lists the new tool', async () =>
      (await listedNames()).includes('fresh_gift_wrap') ? true : undefined,
    );
    const client = await connectModernClient(service.url, {});
    const result = (await client.callTool({ name: 'fresh_gift_wrap', arguments: {} })) as {
      content: Array<{ text: string }>;
    };
    expect(result.content[0]!.text).toBe('ok gift_wrap');
    await client.close();
  });
});
