/**
 * A handshake-era upstream with sessions (the official TypeScript SDK 1.x server in stateful mode,
 * test/support/legacy-sdk-upstream.ts) announces a new tool, `notifications/tools/list_changed`
 * on its session's GET stream: the gateway, whose client holds that stream open, lists it again at
 * once (its periodic listing is a day away), and a 2026-07-28 client listening is told. When the
 * upstream restarts (on the same port, its sessions gone), the gateway opens a new session, with
 * its stream, and hears the restarted upstream's announcements as it did the first one's.
 */
import { freePort } from '../../cli/dev/local-stack/free-port';
import { connectModernClient } from '../support/modern-client';
import { startLegacySessionUpstream, type LegacySessionUpstream } from '../support/legacy-sdk-upstream';
import type { TestService } from '../support/test-service';
import { until } from '../support/until';
import { listedNames, NEVER_REFRESHED_MS, startGatewayService } from './gateway-service';

let port: number;
let upstream: LegacySessionUpstream;
let service: TestService;

beforeAll(async () => {
  port = await freePort();
  upstream = await startLegacySessionUpstream(port);
  service = await startGatewayService([
    { name: 'ledger', url: upstream.url, toolPrefix: 'ledger_', refreshEveryMs: NEVER_REFRESHED_MS },
  ]);
}, 120_000);
afterAll(async () => {
  await service?.close();
  await upstream?.close();
});

describe('a handshake-era upstream with sessions announcing a tool change', () => {
  it('is listed again at once, and a 2026-07-28 client listening is told', async () => {
    await until('the gateway to hold its session stream', async () =>
      upstream.openStreams() === 1 ? true : undefined,
    );
    const client = await connectModernClient(service.url, {});
    const told: unknown[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', (note) => void told.push(note));
    const subscription = await client.listen({ toolsListChanged: true });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['ledger_balance']),
      );
      const listingsBefore = upstream.listings();
      upstream.addTool('statement');
      await until('the listen to be told', async () => (told.length > 0 ? true : undefined), 10_000);
      expect(upstream.listings()).toBeGreaterThan(listingsBefore);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('ledger_statement');
    } finally {
      await subscription.close();
      await client.close();
    }
  }, 60_000);

  it('opens a new session when the upstream restarts, and hears its announcements', async () => {
    await upstream.close();
    upstream = await startLegacySessionUpstream(port);
    await until(
      'the gateway to hold a stream of a new session',
      async () => (upstream.openStreams() === 1 ? true : undefined),
      15_000,
    );
    // The gateway lists the upstream again once its stream is back: that listing is over before
    // the change is made, so only the announcement can bring the new tool.
    await until('the listing after the stream came back', async () => (upstream.listings() >= 1 ? true : undefined));
    const listingsBefore = upstream.listings();
    upstream.addTool('audit');
    await until(
      'the listing the announcement asked for',
      async () => ((await listedNames(service)).includes('ledger_audit') ? true : undefined),
      10_000,
    );
    expect(upstream.listings()).toBeGreaterThan(listingsBefore);
  }, 60_000);
});
