/**
 * A handshake-era upstream with sessions (the official TypeScript SDK 1.x server in stateful mode,
 * test/support/legacy-sdk-upstream.ts) announces a new tool, `notifications/tools/list_changed`
 * on its session's GET stream: the gateway, whose client holds that stream open, lists it again at
 * once (its periodic listing is a day away), and a 2026-07-28 client listening is told.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectModernClient } from '../support/modern-client';
import { startLegacySessionUpstream, type LegacySessionUpstream } from '../support/legacy-sdk-upstream';
import { startTestService, type TestService } from '../support/test-service';
import { until } from '../support/until';

let upstream: LegacySessionUpstream;
let service: TestService;

beforeAll(async () => {
  upstream = await startLegacySessionUpstream();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'legacy-announcements-')), 'upstreams.json');
  writeFileSync(
    file,
    JSON.stringify({
      upstreams: [{ name: 'ledger', url: upstream.url, toolPrefix: 'ledger_', refreshEveryMs: 86_400_000 }],
    }),
  );
  service = await startTestService({ UPSTREAMS_FILE: file, HANDLERS: 'none' });
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
});
