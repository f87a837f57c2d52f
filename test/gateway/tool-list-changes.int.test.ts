/**
 * Tool-list changes flow both ways: an upstream (the official TypeScript SDK 2.x server,
 * test/support/sdk-upstream.ts, announcing on its `subscriptions/listen` streams) adds and removes
 * tools, the gateway lists it again at once (its periodic listing is a day away), and the service's
 * own clients are told: a 2026-07-28 client on its open `subscriptions/listen` (the official 2.x
 * client's `listen`), a 2025-11-25 client on its session's GET stream (the official 1.x client,
 * with its `ToolListChangedNotification` handler). Each then lists the new tools. The listens are
 * budgeted per principal (with AUTH_MODE=off, every caller is one).
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/client';
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import type { TestService } from '../support/test-service';
import { until } from '../support/until';
import { listedNames, NEVER_REFRESHED_MS, startGatewayService } from './gateway-service';

let upstream: SdkUpstream;
let service: TestService;

beforeAll(async () => {
  upstream = await startSdkUpstream({ announceToolChanges: true });
  service = await startGatewayService(
    [{ name: 'shop', url: upstream.url, toolPrefix: 'shop_', refreshEveryMs: NEVER_REFRESHED_MS }],
    { MAX_OPEN_SUBSCRIPTIONS_PER_PRINCIPAL: '2' },
  );
}, 120_000);
afterAll(async () => {
  await service?.close();
  await upstream?.close();
});

/** The notifications a client's handler was given, in order, and a wait for the next count of them. */
function received() {
  const notes: Array<{ params?: { _meta?: Record<string, unknown> } }> = [];
  return {
    notes,
    record: (note: unknown) => void notes.push(note as (typeof notes)[number]),
    count: (n: number) =>
      until(`${n} tools/list_changed notifications`, async () => (notes.length >= n ? true : undefined), 15_000),
  };
}

describe('tool-list changes', () => {
  it('lists an upstream again as soon as it announces a change, not at its refresh', async () => {
    expect(await listedNames(service)).not.toContain('shop_gift_wrap');
    upstream.addTool('gift_wrap');
    await until(
      'the listing the announcement asked for',
      async () => ((await listedNames(service)).includes('shop_gift_wrap') ? true : undefined),
      10_000,
    );
  });

  it("tells both eras' clients, which then list the new tools and no more the removed ones", async () => {
    const modern: Client = await connectModernClient(service.url, {});
    const modernNotes = received();
    modern.setNotificationHandler('notifications/tools/list_changed', modernNotes.record);
    const subscription = await modern.listen({ toolsListChanged: true, resourceSubscriptions: ['shop://stock'] });
    // Only what can change here is honored: the lists, no resource's contents.
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });

    const legacy = new LegacyClient({ name: 'desk', version: '1.0.0' });
    const legacyNotes = received();
    legacy.setNotificationHandler(ToolListChangedNotificationSchema, legacyNotes.record);
    await legacy.connect(new LegacyTransport(new URL(service.url)));
    expect(legacy.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    // The session's GET stream opens after the handshake; give it a moment to be held.
    await new Promise((resolve) => setTimeout(resolve, 500));

    upstream.addTool('engrave');
    await Promise.all([modernNotes.count(1), legacyNotes.count(1)]);
    expect(modernNotes.notes[0]!.params?._meta?.['io.modelcontextprotocol/subscriptionId']).toEqual(expect.any(String));
    expect((await modern.listTools()).tools.map((tool) => tool.name)).toContain('shop_engrave');
    expect((await legacy.listTools()).tools.map((tool) => tool.name)).toContain('shop_engrave');

    upstream.removeTool('engrave');
    await Promise.all([modernNotes.count(2), legacyNotes.count(2)]);
    expect((await modern.listTools()).tools.map((tool) => tool.name)).not.toContain('shop_engrave');
    expect((await legacy.listTools()).tools.map((tool) => tool.name)).not.toContain('shop_engrave');

    await subscription.close();
    expect(await subscription.closed).toBe('local');
    await legacy.close();
    await modern.close();
  }, 60_000);

  it("refuses a principal's listen past its budget, with a clear error, and takes one again once one ended", async () => {
    const client: Client = await connectModernClient(service.url, {});
    const first = await client.listen({ toolsListChanged: true });
    const second = await client.listen({ toolsListChanged: true });
    await expect(client.listen({ toolsListChanged: true })).rejects.toThrow(
      'Server busy: open subscriptions of this principal (limit 2)',
    );
    await first.close();
    await until('the closed listen to free its slot', async () =>
      client.listen({ toolsListChanged: true }).then(
        (third) => third,
        () => undefined,
      ),
    ).then((third) => third.close());
    await second.close();
    await client.close();
  }, 60_000);
});
