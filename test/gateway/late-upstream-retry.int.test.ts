/**
 * An upstream that comes up after the service, declared with a refresh a day away and announcing no
 * tool changes (the official TypeScript SDK 2.x server, test/support/sdk-upstream.ts): its failed
 * first listing is tried again, backing off from a second, so its tools are served within seconds
 * of it coming up, not at the next periodic listing. As when an API starts before the MCP server it
 * stands in front of (docker compose without its depends_on order, a pod before its upstream's).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import { startTestService, type TestService } from '../support/test-service';
import { until } from '../support/until';
import { listedTo } from './era-client';

let port: number;
let upstream: SdkUpstream | undefined;
let service: TestService;

beforeAll(async () => {
  port = await freePort();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'late-upstream-retry-')), 'upstreams.json');
  writeFileSync(
    file,
    JSON.stringify({
      upstreams: [
        { name: 'late', url: `http://127.0.0.1:${port}/mcp`, toolPrefix: 'late_', refreshEveryMs: 86_400_000 },
      ],
    }),
  );
  service = await startTestService({ UPSTREAMS_FILE: file, HANDLERS: 'none', UPSTREAMS_START_WAIT_MS: '0' });
}, 120_000);
afterAll(async () => {
  await service?.close();
  await upstream?.close();
});

it('serves the tools of an upstream that comes up after the service within seconds, its refresh a day away', async () => {
  expect(await listedTo('2026-07-28', service.url)).toEqual([]);
  // Down for a few failed listings in a row: the wait between tries has grown past its first second.
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  expect(await listedTo('2026-07-28', service.url)).toEqual([]);
  upstream = await startSdkUpstream({ port });
  const up = Date.now();
  await until(
    "the upstream's tools",
    async () => ((await listedTo('2026-07-28', service.url)).includes('late_add') ? true : undefined),
    20_000,
  );
  // The third retry comes at most 4 s after the second (1 s, 2 s, 4 s, ... up to a minute).
  expect(Date.now() - up).toBeLessThan(10_000);
  expect(upstream.listings()).toBeGreaterThanOrEqual(1);
}, 60_000);
