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
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import { startTestService, type TestService } from '../support/test-service';
import { exchangeStatus } from '../support/exchange-rows';
import { until } from '../support/until';
import { connectEraClient, ERAS, listedTo, type Era } from './era-client';

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

const listedNames = () => listedTo('2026-07-28', service.url);

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
const removedToolError = (name: string, tool: string) =>
  name === 'kept'
    ? { code: -32602, message: `upstream kept: Tool ${tool} not found` }
    : { code: -32602, message: `Unknown tool: fresh_${tool}` };

/** What each era's caller calls: a tool that asks a form, an argument of it, and its answer to the form. */
const FORMS: Record<Era, { tool: string; argument: string; suffix: string; answer: Record<string, unknown> }> = {
  '2026-07-28': { tool: 'confirm_order', argument: 'order', suffix: 'M', answer: { name: 'Ada' } },
  '2025-11-25': { tool: 'reserve', argument: 'show', suffix: 'L', answer: { seats: 2 } },
};

/** The error each era's client throws for `error`: the 1.x client puts "MCP error <code>: " before the message. */
const thrownBy = (era: Era, { code, message }: Outcome): Outcome =>
  era === '2026-07-28' ? { code, message } : { code, message: `MCP error ${code}: ${message}` };

describe('an upstream changes its tools under a running exchange', () => {
  it.each(ERAS.flatMap((era) => (['kept', 'fresh'] as const).map((name) => [name, era] as const)))(
    '%s: a %s caller answering a form of a tool that was removed',
    async (name, era) => {
      const upstream = name === 'kept' ? kept : fresh;
      const { tool, argument, suffix, answer: content } = FORMS[era];
      const value = `${name}-${suffix}`;
      const asked = gate();
      const answer = gate();
      const client = await connectEraClient(era, service.url, async () => {
        asked.open();
        await answer.opened;
        return { action: 'accept', content };
      });
      const call = settle(client.call(`${name}_${tool}`, { [argument]: value }));
      await asked.opened;
      const exchangeId = await exchangeOf(upstream, argument, value);
      upstream.removeTool(tool);
      if (name === 'fresh')
        await until('the refresh that drops the tool', async () =>
          (await listedNames()).includes(`fresh_${tool}`) ? undefined : true,
        );
      answer.open();
      expect(await call).toEqual(thrownBy(era, removedToolError(name, tool)));
      expect(await endedStatus(exchangeId)).toBe('failed');
      // The upstream was called for the answer only while the gateway still listed the tool, once.
      expect(callsWith(upstream, argument, value)).toHaveLength(name === 'kept' ? 2 : 1);
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
