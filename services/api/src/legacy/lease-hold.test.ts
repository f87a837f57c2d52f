import { DELIVERY_LEASE_MS, DELIVERY_TAKEN_CHANNEL } from '../../../../lib/db/legacy-store';
import { holdLease } from './lease-hold';

/** A waiter whose every wait is one renewal (as if each period ended, or a takeover was announced). */
function oneReadPerWait(waits: Array<{ channel: string; key: string; timeoutMs: number; absent?: boolean }>) {
  return {
    async waitFor<T>(
      channel: string,
      key: string,
      read: () => Promise<T | undefined>,
      timeoutMs: number,
      _signal?: AbortSignal,
      options?: { absent?: boolean },
    ) {
      waits.push({ channel, key, timeoutMs, absent: options?.absent });
      return read();
    },
  };
}

describe('holdLease', () => {
  it("renews every third of the lease and on a takeover's announcement, and says 'lost' once another connection holds it", async () => {
    const waits: Array<{ channel: string; key: string; timeoutMs: number; absent?: boolean }> = [];
    const renewals = [true, true, false];
    const legacy = { renewLease: jest.fn(async () => renewals.shift() ?? false) };
    const hold = await holdLease({ legacy, waiter: oneReadPerWait(waits) }, 'x', 'me', new AbortController().signal);
    expect(hold).toBe('lost');
    expect(legacy.renewLease).toHaveBeenCalledTimes(3);
    expect(legacy.renewLease).toHaveBeenCalledWith('x', 'me', DELIVERY_LEASE_MS);
    expect(waits[0]).toEqual({
      channel: DELIVERY_TAKEN_CHANNEL,
      key: 'x',
      timeoutMs: DELIVERY_LEASE_MS / 3,
      absent: true,
    });
  });

  it('ends when the delivery stops, without giving the lease up itself', async () => {
    const stop = new AbortController();
    const legacy = {
      renewLease: jest.fn(async () => {
        stop.abort();
        return true;
      }),
    };
    expect(await holdLease({ legacy, waiter: oneReadPerWait([]) }, 'x', 'me', stop.signal)).toBe('ended');
    expect(legacy.renewLease).toHaveBeenCalledTimes(1);
  });
});
