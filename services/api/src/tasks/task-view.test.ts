// Pins the task wire (SEP-2663) as tasks/get and a task-creating call show it: status from the
// exchange's last round, only unanswered keys while input is required, a tool error as completed,
// a cancel as cancelled, any other JSON-RPC error as failed with the error inlined, never a requestState.
import { EXCHANGE_CANCELLED } from '../../../../lib/protocol/exchange-errors';
import { createdTask, detailedTask } from './task-view';
import { askOfTwo, baseSnapshot, later, withRound } from '../../../../test/support/task-snapshots';

const base = baseSnapshot;
const ask = askOfTwo;

describe('task wire', () => {
  it('creates a working task with integer ttlMs and pollIntervalMs and ISO timestamps', () => {
    expect(createdTask(base)).toEqual({
      taskId: 't1',
      status: 'working',
      createdAt: '2026-12-01T10:00:00.000Z',
      lastUpdatedAt: '2026-12-01T10:00:00.000Z',
      ttlMs: 60_000,
      pollIntervalMs: 500,
    });
  });

  it('is working before its first round is recorded', () => {
    expect(detailedTask(base)).toMatchObject({ status: 'working', lastUpdatedAt: later.toISOString() });
    expect(detailedTask(base)).not.toHaveProperty('inputRequests');
  });

  it('requires input with only the keys tasks/update has not answered, and works once all are', () => {
    expect(detailedTask(withRound(ask))).toMatchObject({ status: 'input_required', inputRequests: ask.inputRequests });
    // An embedded request recorded without params goes out with `params: {}` (strict decoders need it).
    expect(detailedTask(withRound(ask, { answeredKeys: ['a'] })).inputRequests).toEqual({
      b: { method: 'elicitation/create', params: {} },
    });
    expect(detailedTask(withRound(ask, { answeredKeys: ['a', 'b'] }))).toMatchObject({ status: 'working' });
  });

  it('completes with the result inlined, a tool error included', () => {
    const result = { content: [{ type: 'text', text: 'no' }], isError: true };
    expect(detailedTask(withRound({ kind: 'complete', result }, { exchangeStatus: 'completed' }))).toMatchObject({
      status: 'completed',
      result,
    });
  });

  it('is cancelled by a cancel, and failed with the error inlined (no result) by any other error', () => {
    const cancelled = detailedTask(
      withRound(
        { kind: 'error', error: { code: EXCHANGE_CANCELLED, message: 'cancelled' } },
        { exchangeStatus: 'cancelled' },
      ),
    );
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(cancelled).not.toHaveProperty('error');
    const failed = detailedTask(
      withRound(
        { kind: 'error', error: { code: -32603, message: 'crashed', data: { x: 1 } } },
        { exchangeStatus: 'failed' },
      ),
    );
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'crashed', data: { x: 1 } } });
    expect(failed).not.toHaveProperty('result');
  });

  it('never carries a requestState', () => {
    for (const snapshot of [base, withRound(ask), withRound({ kind: 'complete', result: {} })])
      expect(detailedTask(snapshot)).not.toHaveProperty('requestState');
  });
});
