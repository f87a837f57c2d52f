import { callBudgetMs, callBudgetProblem } from './call-budget';

describe("an upstream's call budget", () => {
  it('counts every attempt and the pauses between them', () => {
    expect(callBudgetMs({ callTimeoutMs: 25_000, retries: 2 })).toBe(3 * 25_000 + 250 + 1_000);
    expect(callBudgetMs({ callTimeoutMs: 1_000, retries: 0 })).toBe(1_000);
  });

  it('fits the defaults in the default round, and says what to change when a declaration does not fit', () => {
    expect(callBudgetProblem({ name: 'shop', callTimeoutMs: 25_000, retries: 2 }, 90_000)).toBeUndefined();
    expect(callBudgetProblem({ name: 'shop', callTimeoutMs: 60_000, retries: 2 }, 90_000)).toBe(
      'upstream shop: its calls may take 181250 ms (callTimeoutMs 60000 x 3 attempts, and the pauses between them), not under HANDLER_TIMEOUT_MS (90000 ms): lower callTimeoutMs or retries, or raise HANDLER_TIMEOUT_MS',
    );
  });
});
