// Pins the 2025-11-25 task wire: the Task's fields (ttl, pollInterval, never the questions or the
// result), status from the exchange's last round with this revision's rules (a tool error is
// failed), and tasks/result as the call's own response re-addressed, with the related-task _meta.
import { EXCHANGE_CANCELLED, EXCHANGE_EXPIRED } from '../../../../lib/protocol/exchange-errors';
import { RELATED_TASK_META_KEY } from '../../../../lib/protocol/legacy-tasks';
import { asTaskResultResponse, createTaskResult, isTerminal, legacyTask, taskResult } from './legacy-task-view';
import { askOfTwo, baseSnapshot, later, withRound } from '../../../../test/support/task-snapshots';

const base = baseSnapshot;
const ask = askOfTwo;
const related = { [RELATED_TASK_META_KEY]: { taskId: 't1' } };

describe('the 2025-11-25 task wire', () => {
  it('creates a working task with ttl and pollInterval (this revision’s names) and ISO timestamps', () => {
    expect(createTaskResult(base)).toEqual({
      task: {
        taskId: 't1',
        status: 'working',
        createdAt: '2026-12-01T10:00:00.000Z',
        lastUpdatedAt: '2026-12-01T10:00:00.000Z',
        ttl: 60_000,
        pollInterval: 500,
      },
    });
  });

  it('is working before its first round, input_required while a key is unanswered, never with the questions', () => {
    expect(legacyTask(base)).toMatchObject({ status: 'working', lastUpdatedAt: later.toISOString() });
    const waiting = legacyTask(withRound(ask));
    expect(waiting).toMatchObject({ status: 'input_required', statusMessage: expect.stringContaining('tasks/result') });
    expect(waiting).not.toHaveProperty('inputRequests');
    // Answered as responses to the server's requests, or by the 2026-07-28 wire's tasks/update.
    expect(legacyTask(withRound(ask), ['a']).status).toBe('input_required');
    expect(legacyTask(withRound(ask), ['a', 'b']).status).toBe('working');
    expect(legacyTask(withRound(ask, { answeredKeys: ['a'] }), ['b']).status).toBe('working');
    expect(legacyTask(withRound(ask, { exchangeStatus: 'cancelled' })).status).toBe('working');
  });

  it('is completed with a result, failed with a tool error, and never carries the result', () => {
    const done = legacyTask(withRound({ kind: 'complete', result: { content: [] } }));
    expect(done).toMatchObject({ status: 'completed' });
    expect(done).not.toHaveProperty('result');
    const toolError = legacyTask(withRound({ kind: 'complete', result: { content: [], isError: true } }));
    expect(toolError).toMatchObject({ status: 'failed', statusMessage: expect.any(String) });
    expect(isTerminal(toolError)).toBe(true);
  });

  it('is cancelled by a cancel and failed by any other error, with its message', () => {
    const cancelled = legacyTask(
      withRound({ kind: 'error', error: { code: EXCHANGE_CANCELLED, message: 'Exchange cancelled' } }),
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', statusMessage: 'Exchange cancelled' });
    const expired = legacyTask(
      withRound({ kind: 'error', error: { code: EXCHANGE_EXPIRED, message: 'Task expired' } }),
    );
    expect(expired).toMatchObject({ status: 'failed', statusMessage: 'Task expired' });
    expect(expired).not.toHaveProperty('error');
  });

  it('answers tasks/result with the call’s result and the related-task _meta (its own _meta kept)', () => {
    expect(taskResult({ content: [], _meta: { mine: 1 } }, 't1')).toEqual({
      content: [],
      _meta: { mine: 1, ...related },
    });
  });

  it('re-addresses the call’s response to the tasks/result request; an error stays as it is', () => {
    const response = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'ok' }] } };
    expect(asTaskResultResponse(response, 'r-2', 't1')).toEqual({
      jsonrpc: '2.0',
      id: 'r-2',
      result: { content: [{ type: 'text', text: 'ok' }], _meta: related },
    });
    const error = { code: EXCHANGE_CANCELLED, message: 'Exchange cancelled' };
    expect(asTaskResultResponse({ jsonrpc: '2.0', id: 7, error }, 3, 't1')).toEqual({ jsonrpc: '2.0', id: 3, error });
  });
});
