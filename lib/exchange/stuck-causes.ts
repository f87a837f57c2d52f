/**
 * Why an exchange's workflow could not run: the classes of workflow-task failure that the stuck
 * workflow sweep (lib/exchange-client/stuck-workflow-sweeper.ts) ends an exchange for, how a failure
 * Temporal recorded is sorted into one, and how the class travels in the termination reason so that
 * whichever API replica records the ending names the same class. A class names what went wrong,
 * never a payload: it is all the error, the log, the metric and the reason say. Pure.
 */

export const STUCK_CAUSES = [
  'non-determinism',
  'payload-undecodable',
  'payload-too-large',
  'workflow-task-failed',
] as const;
export type StuckCause = (typeof STUCK_CAUSES)[number];

/** How the error message names each class. */
export const STUCK_CAUSE_TEXT: Record<StuckCause, string> = {
  'non-determinism': 'non-determinism: the workflow code no longer replays its history',
  'payload-undecodable': 'a payload could not be decoded',
  'payload-too-large': 'a payload too large for Temporal',
  'workflow-task-failed': 'its workflow task failed',
};

/** What a recorded workflow-task failure says: Temporal's cause, and the failure's error type (its class name). */
export interface WorkflowTaskFailure {
  /** The `WorkflowTaskFailedCause` name (`WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR`, ...). */
  cause: string;
  /** The failure's error type: its `ApplicationFailure` type, else the name its stack trace starts with. */
  errorType?: string;
  /** The failure's message, read only for the server's own size refusals (never logged or recorded). */
  message?: string;
}

/** Errors that say a payload could not be turned back into a value: the service's codec, the SDK's converters. */
const DECODE_ERRORS = new Set(['PayloadCodecError', 'PayloadConverterError', 'ValueError']);

/** Causes Temporal gives when a payload or the message carrying it is over its limits. */
const SIZE_CAUSES = new Set([
  'WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE',
  'WORKFLOW_TASK_FAILED_CAUSE_GRPC_MESSAGE_TOO_LARGE',
]);

export function classifyWorkflowTaskFailure(failure: WorkflowTaskFailure): StuckCause {
  const { cause, errorType, message } = failure;
  if (cause === 'WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR') return 'non-determinism';
  if (SIZE_CAUSES.has(cause) || errorType === 'PayloadsTooLarge') return 'payload-too-large';
  // The server refuses a command whose payload is over `limit.blobSize.error` as a bad attribute.
  if (cause.startsWith('WORKFLOW_TASK_FAILED_CAUSE_BAD_') && /exceeds size limit/i.test(message ?? ''))
    return 'payload-too-large';
  if (errorType !== undefined && DECODE_ERRORS.has(errorType)) return 'payload-undecodable';
  return 'workflow-task-failed';
}

/** The error type a failure's stack trace names (`PayloadCodecError: ...` gives `PayloadCodecError`). */
export function errorTypeOfStack(stack: string | undefined): string | undefined {
  const match = /^([A-Za-z_$][\w$]*)(?::|\n|$)/.exec(stack ?? '');
  return match?.[1];
}

const REASON_PREFIX = 'durable-mcp stuck workflow: ';

/** The reason the sweep terminates a workflow with: the class first, then for people how long and how often. */
export function stuckTerminationReason(cause: StuckCause, failingForMs: number, attempt: number): string {
  return `${REASON_PREFIX}${cause} (workflow tasks failing for ${Math.round(failingForMs / 1000)} s, attempt ${attempt})`;
}

/** The class a termination reason names, when the sweep wrote it; undefined for any other termination. */
export function stuckCauseOfReason(reason: string | undefined): StuckCause | undefined {
  if (!reason?.startsWith(REASON_PREFIX)) return undefined;
  const named = reason.slice(REASON_PREFIX.length).split(' ')[0];
  return STUCK_CAUSES.find((cause) => cause === named);
}
