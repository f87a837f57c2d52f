import { callBudgetMs, callBudgetProblem, decisionBudgetMs, upstreamsBudgetProblem } from './call-budget';

const DEFAULT_BOUNDS = { handlerTimeoutMs: 90_000, localHandlerTimeoutMs: 5_000 };

describe("an upstream's call budget", () => {
  it('counts every attempt and the pauses between them', () => {
    expect(callBudgetMs({ callTimeoutMs: 25_000, retries: 2 })).toBe(3 * 25_000 + 250 + 1_000);
    expect(callBudgetMs({ callTimeoutMs: 1_000, retries: 0 })).toBe(1_000);
  });

  it('fits the defaults in the default round, and says what to change when a declaration does not fit', () => {
    const shop = { name: 'shop', callTimeoutMs: 25_000, retries: 2, roundActivity: 'regular' } as const;
    expect(callBudgetProblem(shop, DEFAULT_BOUNDS)).toBeUndefined();
    expect(callBudgetProblem({ ...shop, callTimeoutMs: 60_000 }, DEFAULT_BOUNDS)).toBe(
      'upstream shop: its calls may take 181250 ms (callTimeoutMs 60000 x 3 attempts, and the pauses between them), not under HANDLER_TIMEOUT_MS (90000 ms): lower callTimeoutMs or retries, or raise HANDLER_TIMEOUT_MS',
    );
  });

  it('holds local rounds to LOCAL_HANDLER_TIMEOUT_MS, naming the fields and the way out', () => {
    const local = { name: 'near', callTimeoutMs: 25_000, retries: 2, roundActivity: 'local' } as const;
    // The defaults that fit a regular round do not fit a local one.
    expect(callBudgetProblem(local, DEFAULT_BOUNDS)).toBe(
      "upstream near: its calls may take 76250 ms (callTimeoutMs 25000 x 3 attempts, and the pauses between them), not under LOCAL_HANDLER_TIMEOUT_MS (5000 ms), the bound of its rounds as local activities (roundActivity 'local'): lower callTimeoutMs or retries, raise LOCAL_HANDLER_TIMEOUT_MS (at most 50000), or run its rounds as regular activities (roundActivity 'regular', under HANDLER_TIMEOUT_MS)",
    );
    // 3 x 1000 + 250 + 1000 = 4250, under 5000; 3 x 1250 + 1250 = 5000 is not under it.
    expect(callBudgetProblem({ ...local, callTimeoutMs: 1_000 }, DEFAULT_BOUNDS)).toBeUndefined();
    expect(callBudgetProblem({ ...local, callTimeoutMs: 1_250 }, DEFAULT_BOUNDS)).toMatch(/may take 5000 ms/);
    // A longer local bound is the local one, whatever HANDLER_TIMEOUT_MS says.
    expect(callBudgetProblem(local, { handlerTimeoutMs: 1_000, localHandlerTimeoutMs: 50_000 })).toMatch(
      /not under LOCAL_HANDLER_TIMEOUT_MS \(50000 ms\)/,
    );
    expect(
      callBudgetProblem(
        { ...local, callTimeoutMs: 15_000 },
        { handlerTimeoutMs: 1_000, localHandlerTimeoutMs: 50_000 },
      ),
    ).toBeUndefined();
  });

  it('names the first upstream of several that does not fit', () => {
    const upstreams = [
      { name: 'far', callTimeoutMs: 25_000, retries: 2, roundActivity: 'regular' },
      { name: 'near', callTimeoutMs: 2_500, retries: 1, roundActivity: 'local' },
      { name: 'nearer', callTimeoutMs: 500, retries: 0, roundActivity: 'local' },
    ] as const;
    expect(upstreamsBudgetProblem(upstreams, DEFAULT_BOUNDS)).toMatch(/^upstream near: its calls may take 5250 ms/);
    expect(upstreamsBudgetProblem([upstreams[0], upstreams[2]], DEFAULT_BOUNDS)).toBeUndefined();
  });

  it("counts a policy's decision point before the calls, in the same round", () => {
    const decide = (timeoutMs: number) => ({ decide: { timeoutMs } });
    const local = { name: 'near', callTimeoutMs: 1_000, retries: 0, roundActivity: 'local' } as const;
    expect(decisionBudgetMs({ policies: [{}, decide(2_000), decide(5_000)] })).toBe(5_000);
    expect(decisionBudgetMs({})).toBe(0);
    // 1000 ms of calls fit a local round of 5 s; with a decision point's 5 s before them, not.
    expect(callBudgetProblem({ ...local, policies: [{}] }, DEFAULT_BOUNDS)).toBeUndefined();
    expect(callBudgetProblem({ ...local, policies: [decide(5_000)] }, DEFAULT_BOUNDS)).toMatch(
      /^upstream near: a round may take 6000 ms \(callTimeoutMs 1000 x 1 attempts, and the pauses between them, after up to 5000 ms for a decision point \(a policy's decide\.timeoutMs\)\), not under LOCAL_HANDLER_TIMEOUT_MS \(5000 ms\).*lower callTimeoutMs or retries or decide\.timeoutMs/,
    );
    // The defaults of a regular upstream and of a decision point fit the default round (81.25 s of 90).
    const shop = { name: 'shop', callTimeoutMs: 25_000, retries: 2, roundActivity: 'regular' } as const;
    expect(callBudgetProblem({ ...shop, policies: [decide(5_000)] }, DEFAULT_BOUNDS)).toBeUndefined();
    expect(callBudgetProblem({ ...shop, policies: [decide(20_000)] }, DEFAULT_BOUNDS)).toMatch(/may take 96250 ms/);
  });
});
