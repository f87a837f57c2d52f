import { RpcError } from '../../../../lib/protocol/rpc-error';
import { createListenBudget } from './listen-budget';

describe('the budget of open subscriptions/listen streams', () => {
  const limits = { maxOpenSubscriptions: 3, maxOpenSubscriptionsPerPrincipal: 2, capacityRetryAfterS: 5 };

  const refusal = (take: () => unknown) => {
    try {
      take();
    } catch (error) {
      return error instanceof RpcError ? error.message : String(error);
    }
    return undefined;
  };

  it("refuses a principal's listen past its own limit, and takes another's", () => {
    const budget = createListenBudget(limits);
    budget.take('ada');
    budget.take('ada');
    expect(refusal(() => budget.take('ada'))).toBe(
      'Server busy: open subscriptions of this principal (limit 2); retry after 5 s',
    );
    expect(refusal(() => budget.take('bob'))).toBeUndefined();
    expect(budget.open).toBe(3);
  });

  it("refuses any listen past the process's limit, and takes one again once one ended (once)", () => {
    const budget = createListenBudget(limits);
    const first = budget.take('ada');
    budget.take('bob');
    budget.take('cy');
    expect(refusal(() => budget.take('dee'))).toBe(
      'Server busy: open subscriptions on this server (limit 3); retry after 5 s',
    );
    first();
    first();
    expect(budget.open).toBe(2);
    budget.take('dee');
    expect(refusal(() => budget.take('eve'))).toBeDefined();
  });
});
