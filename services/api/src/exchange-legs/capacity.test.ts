import { ANONYMOUS_PRINCIPAL_ID, type Principal } from '../../../../lib/exchange/principal';
import { createInflightGate } from './capacity';

const limits = {
  maxInflightLegs: 4,
  maxInflightLegsPerPrincipal: 2,
  maxRunningExchanges: 10,
  maxRunningExchangesPerPrincipal: 5,
  capacityRetryAfterS: 7,
};
const principal = (id: string) => ({ id }) as Principal;

/** A leg held open until `release()`. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { release, work: () => done };
}

describe('the in-flight legs gate', () => {
  it("refuses a principal's leg over its own share while another principal's still pass", async () => {
    const run = createInflightGate(limits);
    const legs = [held(), held(), held()];
    const flood = [run(principal('flood'), legs[0]!.work), run(principal('flood'), legs[1]!.work)];
    await expect(run(principal('flood'), async () => 'x')).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(/principal/),
    });
    const quiet = run(principal('quiet'), legs[2]!.work);
    for (const leg of legs) leg.release();
    await Promise.all([...flood, quiet]);
    // Its share is back once its legs end.
    await expect(run(principal('flood'), async () => 'again')).resolves.toBe('again');
  });

  it('counts the anonymous principal (every caller with AUTH_MODE=off) only against the process budget', async () => {
    const run = createInflightGate(limits);
    const legs = [held(), held(), held(), held()];
    const anonymous = legs.map((leg) => run(principal(ANONYMOUS_PRINCIPAL_ID), leg.work));
    await expect(run(principal('someone'), async () => 'x')).rejects.toMatchObject({
      message: expect.stringMatching(/too many requests in progress on this server/),
    });
    for (const leg of legs) leg.release();
    await Promise.all(anonymous);
  });
});
