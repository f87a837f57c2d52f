// Pins how the conformance runner requires the not-scored scenarios it lists: a failed check, a
// scenario that did not run, or a skip the list does not accept fails the run; an accepted skip is
// reported as a note.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { notScoredProblems, requiredNotScored } from '../../conformance/run-conformance';

function results(checks: Record<string, Array<{ id: string; status: string; errorMessage?: string }>>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'not-scored-'));
  for (const [scenario, list] of Object.entries(checks)) {
    const folder = path.join(dir, `server-${scenario}-2026-12-01T10-00-00-000Z`);
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'checks.json'), JSON.stringify(list));
  }
  return dir;
}

describe('required not-scored scenarios', () => {
  it('lists every tasks scenario of the 2026-07-28 set and the custom-header check, the notifications stub with its accepted skip', () => {
    const required = requiredNotScored('2026-07-28');
    expect(required.map((r) => r.scenario)).toEqual(
      expect.arrayContaining([
        'tasks-lifecycle',
        'tasks-mrtr-composition',
        'tasks-required-task-error',
        'http-custom-header-server-validation',
      ]),
    );
    expect(required).toHaveLength(11);
    expect(required.find((r) => r.scenario === 'tasks-status-notifications')?.skippedUpstream).toBeDefined();
  });

  it('passes when every check passed, and notes an accepted skip', () => {
    const dir = results({
      'tasks-lifecycle': [{ id: 'a', status: 'SUCCESS' }],
      'tasks-status-notifications': [{ id: 'tasks-status-notifications', status: 'SKIPPED' }],
    });
    const { problems, notes } = notScoredProblems(dir, [
      { scenario: 'tasks-lifecycle' },
      { scenario: 'tasks-status-notifications', skippedUpstream: 'stub' },
    ]);
    expect(problems).toEqual([]);
    expect(notes).toEqual(['tasks-status-notifications: tasks-status-notifications skipped by the suite (stub)']);
  });

  it('fails on a failed check, a scenario that did not run, and an unaccepted skip', () => {
    const dir = results({
      'tasks-lifecycle': [{ id: 'a', status: 'FAILURE', errorMessage: 'no task' }],
      'tasks-wire-fields': [{ id: 'b', status: 'SKIPPED' }],
    });
    const { problems } = notScoredProblems(dir, [
      { scenario: 'tasks-lifecycle' },
      { scenario: 'tasks-wire-fields' },
      { scenario: 'tasks-mrtr-input' },
    ]);
    expect(problems).toEqual([
      'tasks-lifecycle: a failed: no task',
      'tasks-wire-fields: b was skipped',
      'tasks-mrtr-input: did not run',
    ]);
  });

  it('does not take one scenario for another whose name starts the same', () => {
    const dir = results({ 'tasks-mrtr-input-extra': [{ id: 'a', status: 'SUCCESS' }] });
    expect(notScoredProblems(dir, [{ scenario: 'tasks-mrtr-input' }]).problems).toEqual([
      'tasks-mrtr-input: did not run',
    ]);
  });
});
