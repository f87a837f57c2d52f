import { createLogger } from '../log';
import type { StuckChecks } from '../db/stuck-checks-pg';
import { createStuckWorkflowSweep } from './stuck-workflow-sweeper';
import type { WorkflowTaskProbe, WorkflowTaskState } from './workflow-task-probe';

const AFTER_MS = 60_000;
const options = { afterMs: AFTER_MS, everyMs: 1_000, batch: 10 };
const log = createLogger('stuck-sweep-test', 'silent');

/** Temporal as the sweep sees it: each exchange's task state, what it reports, what was terminated. */
function world(states: Record<string, WorkflowTaskState>, reported: string[] | Error, idle: string[] = []) {
  const terminated: string[] = [];
  const inspected: string[] = [];
  const probe: WorkflowTaskProbe = {
    inspect: async (id) => (inspected.push(id), states[id] ?? { state: 'running' }),
    terminate: async (id) => (terminated.push(id), true),
    terminationReason: async () => undefined,
    reported: async () => {
      if (reported instanceof Error) throw reported;
      return reported;
    },
  };
  const checks: StuckChecks = { claim: async () => idle, dueAt: async () => undefined };
  const reconciled: string[] = [];
  const sweep = createStuckWorkflowSweep(
    { probe, checks, reconciler: { reconcile: async (id) => (reconciled.push(id), undefined) }, log },
    options,
  );
  return { sweep, terminated, inspected, reconciled };
}

const failingFor = (ms: number): WorkflowTaskState => ({
  state: 'failing',
  attempt: 7,
  failingSince: Date.now() - ms,
  cause: 'non-determinism',
});

describe('the stuck workflow sweep', () => {
  it('ends an exchange Temporal reports failing past the bound, though its row is not idle yet', async () => {
    const { sweep, terminated, reconciled } = world({ a: failingFor(AFTER_MS + 1_000) }, ['a']);
    expect(await sweep.sweep()).toBe(1);
    expect(terminated).toEqual(['a']);
    expect(reconciled).toEqual(['a']);
  });

  it('leaves a reported exchange failing for less than the bound, and asks about each exchange once a sweep', async () => {
    const { sweep, terminated, inspected } = world({ a: failingFor(1_000) }, ['a'], ['a', 'b']);
    expect(await sweep.sweep()).toBe(0);
    expect(terminated).toEqual([]);
    expect(inspected).toEqual(['a', 'b']);
  });

  it('still checks the idle exchanges when Temporal cannot report problems', async () => {
    const { sweep, terminated } = world({ b: failingFor(AFTER_MS * 2) }, new Error('unknown search attribute'), ['b']);
    expect(await sweep.sweep()).toBe(1);
    expect(terminated).toEqual(['b']);
  });
});
