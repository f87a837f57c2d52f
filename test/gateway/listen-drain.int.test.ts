/**
 * A 2026-07-28 client's open `subscriptions/listen` (the official 2.x client's `listen`) when the
 * API drains (its stop): the stream ends with the listen's result, the graceful end the
 * specification gives a client to listen again after, and not with a reset connection.
 */
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import type { TestService } from '../support/test-service';
import { NEVER_REFRESHED_MS, startGatewayService } from './gateway-service';

let upstream: SdkUpstream;
let service: TestService;

beforeAll(async () => {
  upstream = await startSdkUpstream({ announceToolChanges: true });
  service = await startGatewayService([
    { name: 'shop', url: upstream.url, toolPrefix: 'shop_', refreshEveryMs: NEVER_REFRESHED_MS },
  ]);
}, 120_000);
afterAll(async () => {
  await service?.close();
  await upstream?.close();
});

describe('an open subscriptions/listen when the API drains', () => {
  it('ends with the listen result, which the client reads as a graceful end', async () => {
    const client = await connectModernClient(service.url, {});
    const errors: Error[] = [];
    client.onerror = (error) => void errors.push(error);
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });

    await service.close();
    expect(await subscription.closed).toBe('graceful');
    expect(errors.map((error) => error.message)).toEqual([]);
    await client.close();
  }, 60_000);
});
