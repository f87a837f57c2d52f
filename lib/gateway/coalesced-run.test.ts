import { coalescedRun } from './coalesced-run';

describe('a task run on signals, coalesced', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A task that counts its runs and ends when the test says so. */
  function task() {
    const state = { runs: 0, running: 0, most: 0, finish: () => undefined as void };
    const run = () =>
      new Promise<void>((resolve) => {
        state.runs += 1;
        state.running += 1;
        state.most = Math.max(state.most, state.running);
        state.finish = () => {
          state.running -= 1;
          resolve();
        };
      });
    return { state, run };
  }
  /** Lets the promise callbacks of a finished run settle. */
  const settle = () => Promise.resolve().then(() => Promise.resolve());

  it('runs a burst of signals once, after the quiet period that follows the last', async () => {
    const { state, run } = task();
    const runner = coalescedRun(run, { quietMs: 100, maxWaitMs: 1_000 });
    runner.signal();
    jest.advanceTimersByTime(60);
    runner.signal();
    jest.advanceTimersByTime(60);
    runner.signal();
    jest.advanceTimersByTime(99);
    expect(state.runs).toBe(0);
    jest.advanceTimersByTime(1);
    expect(state.runs).toBe(1);
    state.finish();
    await settle();
    jest.advanceTimersByTime(10_000);
    expect(state.runs).toBe(1);
  });

  it('runs at the latest the longest wait after the first signal, however the signals go on', () => {
    const { state, run } = task();
    const runner = coalescedRun(run, { quietMs: 100, maxWaitMs: 250 });
    for (let ms = 0; ms < 240; ms += 50) {
      runner.signal();
      jest.advanceTimersByTime(50);
    }
    expect(state.runs).toBe(1);
  });

  it('never overlaps two runs, and runs once more after a run that a signal came during', async () => {
    const { state, run } = task();
    const runner = coalescedRun(run, { quietMs: 100, maxWaitMs: 1_000 });
    runner.signal();
    jest.advanceTimersByTime(100);
    expect(state.runs).toBe(1);
    runner.signal();
    runner.signal();
    jest.advanceTimersByTime(5_000);
    expect(state.runs).toBe(1);
    state.finish();
    await settle();
    jest.advanceTimersByTime(100);
    expect(state.runs).toBe(2);
    expect(state.most).toBe(1);
    state.finish();
    await settle();
    jest.advanceTimersByTime(5_000);
    expect(state.runs).toBe(2);
  });

  it('starts nothing once stopped', () => {
    const { state, run } = task();
    const runner = coalescedRun(run, { quietMs: 100, maxWaitMs: 1_000 });
    runner.signal();
    runner.stop();
    runner.signal();
    jest.advanceTimersByTime(5_000);
    expect(state.runs).toBe(0);
  });
});
