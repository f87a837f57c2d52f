/**
 * An upstream whose process restarts on the same port (the official TypeScript SDK 2.x server,
 * test/support/sdk-upstream.ts, closed with its connections and started again): the gateway's
 * `subscriptions/listen` to it drops with it, is opened again once the upstream is back, and a
 * change the restarted upstream announces after that reaches the gateway at once. Its periodic
 * listing is a day away, so only the announcement can explain the new tool being served.
 */
import { freePort } from '../../cli/dev/local-stack/free-port';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import type { TestService } from '../support/test-service';
import { until } from '../support/until';
import { listedNames, NEVER_REFRESHED_MS, startGatewayService } from './gateway-service';

let port: number;
let upstream: SdkUpstream;
let service: TestService;

beforeAll(async () => {
  port = await freePort();
  upstream = await startSdkUpstream({ announceToolChanges: true, port });
  service = await startGatewayService([
    { name: 'shop', url: upstream.url, toolPrefix: 'shop_', refreshEveryMs: NEVER_REFRESHED_MS },
  ]);
}, 120_000);
afterAll(async () => {
  await service?.close();
  await upstream?.close();
});

describe('an upstream that restarts under its subscription', () => {
  it('is subscribed to again, and its next announcement is listed at once', async () => {
    await until('the gateway to subscribe to the upstream', async () =>
      upstream.openListens() === 1 ? true : undefined,
    );
    expect(await listedNames(service)).toContain('shop_add');

    await upstream.close();
    upstream = await startSdkUpstream({ announceToolChanges: true, port });
    await until(
      'the gateway to subscribe to the restarted upstream',
      async () => (upstream.openListens() === 1 ? true : undefined),
      15_000,
    );
    // The gateway lists an upstream again when its subscription is back (what it announced while
    // down was missed): that listing is over before the change is made, so only the announcement
    // can bring the new tool.
    await until('the listing after the subscription came back', async () =>
      upstream.listings() >= 1 ? true : undefined,
    );
    const listingsBefore = upstream.listings();
    upstream.addTool('gift_wrap');
    await until(
      'the listing the announcement asked for',
      async () => ((await listedNames(service)).includes('shop_gift_wrap') ? true : undefined),
      10_000,
    );
    expect(upstream.listings()).toBeGreaterThan(listingsBefore);
  }, 60_000);
});
