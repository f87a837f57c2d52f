import { closingLeadMs, createShutdown, eitherSignal, endWhenIdle, IDLE_CHECK_MS } from './shutdown';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the shutdown of an API', () => {
  it('drains at once and closes a lead before the grace runs out', async () => {
    const shutdown = createShutdown();
    expect([shutdown.draining.aborted, shutdown.closing.aborted]).toEqual([false, false]);
    const started = Date.now();
    const closed = new Promise<number>((resolve) =>
      shutdown.closing.addEventListener('abort', () => resolve(Date.now() - started)),
    );
    const end = shutdown.begin(400);
    expect(shutdown.draining.aborted).toBe(true);
    expect(shutdown.closing.aborted).toBe(false);
    const after = await closed;
    expect(after).toBeGreaterThanOrEqual(400 - closingLeadMs(400) - 5);
    expect(after).toBeLessThan(400);
    end();
  });

  it('closes at once when stopped before the lead, and leads by at most a second', () => {
    const shutdown = createShutdown();
    shutdown.begin(60_000)();
    expect(shutdown.closing.aborted).toBe(true);
    expect([closingLeadMs(0), closingLeadMs(400), closingLeadMs(10_000)]).toEqual([0, 200, 1_000]);
  });
});

describe('endWhenIdle', () => {
  it('asks nothing before the drain, then ends once nothing runs', async () => {
    const shutdown = createShutdown();
    let asked = 0;
    let running = true;
    const ended = endWhenIdle(shutdown, new AbortController().signal, async () => {
      asked += 1;
      return !running;
    });
    await sleep(IDLE_CHECK_MS * 2);
    expect(asked).toBe(0);
    const end = shutdown.begin(60_000);
    await sleep(IDLE_CHECK_MS * 2);
    expect(asked).toBeGreaterThan(0);
    expect(ended.aborted).toBe(false);
    running = false;
    await sleep(IDLE_CHECK_MS * 2);
    expect(ended.aborted).toBe(true);
    end();
  });

  it('ends at closing however busy, and a failed question counts as busy', async () => {
    const shutdown = createShutdown();
    const ended = endWhenIdle(shutdown, new AbortController().signal, () => Promise.reject(new Error('no Postgres')));
    const end = shutdown.begin(60_000);
    await sleep(IDLE_CHECK_MS * 2);
    expect(ended.aborted).toBe(false);
    end();
    expect(ended.aborted).toBe(true);
  });

  it('stops asking once its stream ended otherwise', async () => {
    const shutdown = createShutdown();
    const stop = new AbortController();
    let asked = 0;
    const ended = endWhenIdle(shutdown, stop.signal, async () => {
      asked += 1;
      return false;
    });
    const end = shutdown.begin(60_000);
    await sleep(IDLE_CHECK_MS / 2);
    stop.abort();
    const before = asked;
    await sleep(IDLE_CHECK_MS * 2);
    expect(asked).toBe(before);
    expect(ended.aborted).toBe(false);
    end();
  });
});

describe('eitherSignal', () => {
  it('aborts with either, and stops listening when disposed', () => {
    const [a, b] = [new AbortController(), new AbortController()];
    const either = eitherSignal(a.signal, b.signal);
    b.abort();
    expect(either.signal.aborted).toBe(true);
    const disposed = eitherSignal(a.signal);
    disposed.dispose();
    a.abort();
    expect(disposed.signal.aborted).toBe(false);
    expect(eitherSignal(a.signal).signal.aborted).toBe(true);
  });
});
