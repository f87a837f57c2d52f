/**
 * An upstream that is down when the service starts, and up later: the service serves no local tool
 * (HANDLERS=none), so at first it lists no tool at all, not even `await_answer`. Once a refresh has
 * listed the upstream's tools (the official TypeScript SDK 2.x server, test/support/sdk-upstream.ts),
 * `await_answer` is listed beside them, to a 2026-07-28 client and to a 2025-11-25 session on
 * Streamable HTTP alike, and it waits again for an upstream call answered with the pending result.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { pendingOf } from '../answers/long-wait-support';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import { startTestService, type TestService } from '../support/test-service';
import { until } from '../support/until';
import { connectEraClient, ERAS, listedTo, type Era } from './era-client';

let port: number;
let upstream: SdkUpstream | undefined;
let service: TestService;

beforeAll(async () => {
  port = await freePort();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'late-upstream-')), 'upstreams.json');
  writeFileSync(
    file,
    JSON.stringify({
      upstreams: [{ name: 'late', url: `http://127.0.0.1:${port}/mcp`, toolPrefix: 'late_', refreshEveryMs: 1_000 }],
    }),
  );
  // A call still waiting at its client's second result (2026-07-28), or after 1 s (2025-11-25), is answered pending.
  service = await startTestService({
    UPSTREAMS_FILE: file,
    HANDLERS: 'none',
    HTTP_WAIT_MS: '500',
    PENDING_RESULT_AT_LEG: '2',
    LEGACY_PENDING_AFTER_MS: '1000',
  });
}, 120_000);
afterAll(async () => {
  await service?.close();
  await upstream?.close();
});

const listedBy = (era: Era) => listedTo(era, service.url);

describe('an upstream down at the start, up later, in front of no local tool', () => {
  it('lists no tool while the upstream is down, in either era', async () => {
    expect(await listedBy('2026-07-28')).toEqual([]);
    expect(await listedBy('2025-11-25')).toEqual([]);
  });

  it.each(ERAS)(
    '%s: lists await_answer once the upstream is listed, and it waits for a pending call',
    async (era) => {
      upstream ??= await startSdkUpstream({ port });
      await until('the refresh that lists the upstream', async () =>
        (await listedBy(era)).includes('late_add') ? true : undefined,
      );
      const client = await connectEraClient(era, service.url);
      try {
        expect(await client.listed()).toEqual(['late_add', 'late_confirm_order', 'late_reserve', 'await_answer']);
        // The upstream holds the call until the caller was answered with the pending result.
        const held = upstream.hold('add', 'before');
        const pending = await client.call('late_add', { a: 2, b: 3 });
        const meta = pendingOf(pending);
        expect(meta).toMatchObject({ status: 'pending', tool: 'late_add', awaitTool: 'await_answer' });
        held.release();
        const awaited = await client.call('await_answer', { handle: meta!.handle });
        expect(awaited.isError).toBeFalsy();
        expect(awaited.content[0]!.text).toBe('5');
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});
