import { createCircuitBreaker } from './circuit-breaker';

describe("an upstream's circuit breaker", () => {
  let clock = 0;
  const breaker = () => createCircuitBreaker({ failuresToOpen: 3, openMs: 1_000, now: () => clock });
  beforeEach(() => (clock = 0));

  it('opens after that many failures in a row, and a success in between starts the count again', () => {
    const circuit = breaker();
    circuit.failure();
    circuit.failure();
    circuit.success();
    circuit.failure();
    circuit.failure();
    expect(circuit.state()).toBe('closed');
    circuit.failure();
    expect(circuit.state()).toBe('open');
    expect(circuit.allow()).toBe(false);
    expect(circuit.retryAt()).toBe(1_000);
  });

  it('lets one call through once open long enough: its success closes, its failure opens again', () => {
    const circuit = breaker();
    for (let i = 0; i < 3; i++) circuit.failure();
    clock = 1_000;
    expect(circuit.state()).toBe('half-open');
    expect(circuit.allow()).toBe(true);
    expect(circuit.allow()).toBe(false); // the trial call is alone
    circuit.failure();
    expect(circuit.state()).toBe('open');
    clock = 2_000;
    expect(circuit.allow()).toBe(true);
    circuit.success();
    expect(circuit.state()).toBe('closed');
    expect(circuit.allow()).toBe(true);
  });
});
