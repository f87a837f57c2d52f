/**
 * An upstream that hangs at the start: it takes the connection and answers everything but its
 * `tools/list` (the official TypeScript SDK 2.x server, test/support/sdk-upstream.ts, its listings
 * held). The service starts after UPSTREAMS_START_WAIT_MS all the same, serving the other
 * upstream's tools; once the hanging one answers, its tools are served too, and a 2026-07-28 client
 * listening (`subscriptions/listen`, the official 2.x client's `listen`) is told, without waiting
 * for a periodic listing (a day away). The API checks the arguments of a tool it lists only since
 * then as it checks its own tools' (against the tool's `inputSchema`, before anything starts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import { startTestService, type TestService } from '../support/test-service';
import { until } from '../support/until';

const START_WAIT_MS = 300;

let quick: SdkUpstream;
let hanging: SdkUpstream;
let releaseListings: () => void;
let service: TestService;
let startedAfterMs: number;

beforeAll(async () => {
  quick = await startSdkUpstream();
  hanging = await startSdkUpstream({ announceToolChanges: true });
  releaseListings = hanging.holdListings().release;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hanging-upstream-')), 'upstreams.json');
  writeFileSync(
    file,
    JSON.stringify({
      upstreams: [
        { name: 'quick', url: quick.url, toolPrefix: 'quick_', refreshEveryMs: 86_400_000 },
        // Its listing would time out only after a minute: a start that waited for it would take that long.
        {
          name: 'slow',
          url: hanging.url,
          toolPrefix: 'slow_',
          refreshEveryMs: 86_400_000,
          callTimeoutMs: 60_000,
          retries: 0,
        },
      ],
    }),
  );
  const started = Date.now();
  service = await startTestService({
    UPSTREAMS_FILE: file,
    UPSTREAMS_START_WAIT_MS: String(START_WAIT_MS),
    HANDLERS: 'none',
  });
  startedAfterMs = Date.now() - started;
}, 120_000);
afterAll(async () => {
  releaseListings?.();
  await service?.close();
  await hanging?.close();
  await quick?.close();
});

describe('an upstream that hangs on its listing at the start', () => {
  it('does not hold the start: the other upstream is served while its listing still hangs', async () => {
    // The service started although the hanging upstream was sent its listing and never answered it.
    expect(hanging.listings()).toBeGreaterThanOrEqual(1);
    // The rest of a test service's start (Postgres, Temporal, the worker) takes a few seconds, far
    // less than the listing's own timeout (a minute), which the start did not wait for.
    expect(startedAfterMs).toBeGreaterThanOrEqual(START_WAIT_MS);
    expect(startedAfterMs).toBeLessThan(30_000);
    const client = await connectModernClient(service.url, {});
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['quick_add', 'quick_confirm_order']));
      expect(names.filter((name) => name.startsWith('slow_'))).toEqual([]);
      const sum = (await client.callTool({ name: 'quick_add', arguments: { a: 2, b: 3 } })) as {
        content: Array<{ text: string }>;
      };
      expect(sum.content[0]!.text).toBe('5');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('serves its tools once it answers, and tells a 2026-07-28 client listening', async () => {
    const client = await connectModernClient(service.url, {});
    const told: unknown[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', (note) => void told.push(note));
    const subscription = await client.listen({ toolsListChanged: true });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('slow_add');
      releaseListings();
      await until(
        "the listen to be told of the hanging upstream's tools",
        async () => (told.length > 0 ? true : undefined),
        10_000,
      );
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['quick_add', 'slow_add', 'slow_confirm_order']));

      // Listed after the API started, its inputSchema checks its calls' arguments all the same.
      const refused = (await client.callTool({ name: 'slow_add', arguments: { a: 'two', b: 3 } })) as {
        content: Array<{ text: string }>;
        isError?: boolean;
      };
      expect(refused.isError).toBe(true);
      expect(refused.content[0]!.text).toMatch(/^Invalid arguments for tool slow_add:\n.*\ba\b/);
      expect(hanging.calls.filter((call) => call.arguments?.a === 'two')).toEqual([]);
      const sum = (await client.callTool({ name: 'slow_add', arguments: { a: 2, b: 3 } })) as {
        content: Array<{ text: string }>;
      };
      expect(sum.content[0]!.text).toBe('5');
    } finally {
      await subscription.close();
      await client.close();
    }
  }, 60_000);
});
