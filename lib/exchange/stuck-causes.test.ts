// How a workflow-task failure Temporal recorded is sorted into the class its exchange's ending names.
import {
  classifyWorkflowTaskFailure,
  errorTypeOfStack,
  STUCK_CAUSES,
  stuckCauseOfReason,
  stuckTerminationReason,
} from './stuck-causes';

describe('classifyWorkflowTaskFailure', () => {
  it.each([
    [{ cause: 'WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR' }, 'non-determinism'],
    [{ cause: 'WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE', errorType: 'PayloadsTooLarge' }, 'payload-too-large'],
    [{ cause: 'WORKFLOW_TASK_FAILED_CAUSE_GRPC_MESSAGE_TOO_LARGE' }, 'payload-too-large'],
    [
      {
        cause: 'WORKFLOW_TASK_FAILED_CAUSE_BAD_RECORD_MARKER_ATTRIBUTES',
        message: 'RecordMarkerCommandAttributes.Details exceeds size limit.',
      },
      'payload-too-large',
    ],
    [
      { cause: 'WORKFLOW_TASK_FAILED_CAUSE_BAD_RECORD_MARKER_ATTRIBUTES', message: 'MarkerName is not set' },
      'workflow-task-failed',
    ],
    [
      { cause: 'WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE', errorType: 'PayloadCodecError' },
      'payload-undecodable',
    ],
    [
      { cause: 'WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE', errorType: 'PayloadConverterError' },
      'payload-undecodable',
    ],
    [
      { cause: 'WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE', errorType: 'TypeError' },
      'workflow-task-failed',
    ],
    [{ cause: 'WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES' }, 'workflow-task-failed'],
  ])('%j is %s', (failure, expected) => {
    expect(classifyWorkflowTaskFailure(failure)).toBe(expected);
  });
});

describe('errorTypeOfStack', () => {
  it('reads the error name a V8 stack trace starts with', () => {
    expect(errorTypeOfStack('PayloadCodecError: an encrypted payload was refused\n    at decodeOne')).toBe(
      'PayloadCodecError',
    );
    expect(errorTypeOfStack('TypeError\n    at x')).toBe('TypeError');
    expect(errorTypeOfStack('  at nothing')).toBeUndefined();
    expect(errorTypeOfStack(undefined)).toBeUndefined();
  });
});

describe('the termination reason', () => {
  it.each(STUCK_CAUSES)('carries %s to whichever replica records the ending', (cause) => {
    expect(stuckCauseOfReason(stuckTerminationReason(cause, 183_400, 12))).toBe(cause);
  });

  it('says how long and how often, in seconds', () => {
    expect(stuckTerminationReason('non-determinism', 183_400, 12)).toBe(
      'durable-mcp stuck workflow: non-determinism (workflow tasks failing for 183 s, attempt 12)',
    );
  });

  it('is not read into an operator’s own termination', () => {
    expect(stuckCauseOfReason('fault suite: operator terminate')).toBeUndefined();
    expect(stuckCauseOfReason('durable-mcp stuck workflow: something-else (x)')).toBeUndefined();
    expect(stuckCauseOfReason(undefined)).toBeUndefined();
  });
});
