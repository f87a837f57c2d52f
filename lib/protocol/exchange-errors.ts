/**
 * JSON-RPC errors that end an exchange. Pure data and functions: the workflow bundle imports it.
 *
 * The codes are lib/exchange/ending-codes.ts's.
 */
import type { OutcomeError } from '../exchange/types';
import { STUCK_CAUSE_TEXT, type StuckCause } from '../exchange/stuck-causes';
import { MISSING_REQUIRED_CLIENT_CAPABILITY, SERVER_BUSY } from './json-rpc-codes';

import {
  EXCHANGE_CANCELLED,
  EXCHANGE_EXPIRED,
  EXCHANGE_TERMINATED,
  ROUND_CAP_EXCEEDED,
} from '../exchange/ending-codes';

export { EXCHANGE_CANCELLED, EXCHANGE_EXPIRED, EXCHANGE_TERMINATED, ROUND_CAP_EXCEEDED };

/** Who ended an exchange by cancelling it. */
export type CancelledBy = 'client' | 'operator';

/**
 * An exchange whose round waited `roundTimeoutMs` for its answers in vain: the wait that applied
 * to that round (the round timeout, or an addressed ask's own `waitMs`), not the configured default.
 */
export function exchangeExpired(exchangeId: string, round: number, roundTimeoutMs: number): OutcomeError {
  return {
    code: EXCHANGE_EXPIRED,
    message: `Exchange expired: the answers to round ${round} did not arrive within ${roundTimeoutMs} ms`,
    data: { exchangeId, round, roundTimeoutMs },
  };
}

/** A task whose TTL elapsed before it ended (SEP-2663: the server may discard it then). */
export function taskExpired(exchangeId: string, ttlMs: number): OutcomeError {
  return {
    code: EXCHANGE_EXPIRED,
    message: `Task expired: it did not finish within its TTL of ${ttlMs} ms`,
    data: { exchangeId, ttlMs },
  };
}

export function exchangeCancelled(exchangeId: string, reason?: string, by: CancelledBy = 'client'): OutcomeError {
  return {
    code: EXCHANGE_CANCELLED,
    message: `Exchange cancelled by ${by === 'client' ? 'the client' : 'an operator'}${reason ? `: ${reason}` : ''}`,
    data: { exchangeId, cancelledBy: by },
  };
}

/** The workflow closed with `workflowStatus` (TERMINATED, TIMED_OUT, ...) and recorded no outcome. */
export function exchangeTerminated(exchangeId: string, workflowStatus: string): OutcomeError {
  return {
    code: EXCHANGE_TERMINATED,
    message:
      workflowStatus === 'NOT_FOUND'
        ? // Its API stopped between the call's record and its workflow's start, or retention removed it.
          'Exchange ended by Temporal: it has no workflow (never started, or removed by retention)'
        : `Exchange ended by Temporal: its workflow is ${workflowStatus.toLowerCase().replace(/_/g, ' ')}`,
    data: { exchangeId, workflowStatus },
  };
}

/** A round whose handler never finished in `attempts` attempts (it keeps killing its worker). -32603. */
export function roundCrashed(exchangeId: string, round: number, attempts: number): OutcomeError {
  return {
    code: -32603,
    message: `Exchange failed: round ${round}'s handler did not finish in ${attempts} attempts (it may be stopping its worker)`,
    data: { exchangeId, round, attempts },
  };
}

/** A round whose outcome could not be stored or carried (a value Postgres refuses, a payload over a limit). */
export function roundUnrecordable(exchangeId: string, round: number, reason: string): OutcomeError {
  return {
    code: -32603,
    message: `Exchange failed: round ${round}'s outcome could not be recorded (${reason})`,
    data: { exchangeId, round },
  };
}

/** A round whose handler never finished (it hung or kept crashing the worker). -32603. */
export function roundFailed(exchangeId: string, round: number): OutcomeError {
  return {
    code: -32603,
    message: `Exchange failed: round ${round} could not run to completion`,
    data: { exchangeId, round },
  };
}

export function roundCapExceeded(exchangeId: string, maxRounds: number): OutcomeError {
  return {
    code: ROUND_CAP_EXCEEDED,
    message: `Exchange ended: the handler asked for input more than ${maxRounds} times`,
    data: { exchangeId, maxRounds },
  };
}

/** The workflow failed (closed as FAILED) without recording an outcome. -32603. */
export function workflowFailed(exchangeId: string, workflowStatus: string): OutcomeError {
  return { code: -32603, message: 'Exchange failed: its workflow failed', data: { exchangeId, workflowStatus } };
}

/**
 * The workflow's tasks kept failing (`cause`, lib/exchange/stuck-causes.ts) past
 * STUCK_WORKFLOW_AFTER_MS, so it was terminated and this ending recorded for it. -32603,
 * `data.cause` the class; never what the payload held.
 */
export function workflowStuck(exchangeId: string, cause: StuckCause): OutcomeError {
  return {
    code: -32603,
    message: `Exchange failed: its workflow could not run (${STUCK_CAUSE_TEXT[cause]}) and was ended`,
    data: { exchangeId, cause },
  };
}

/** The handler asked for something the client did not declare. -32021, `data.requiredCapabilities`. */
export function missingClientCapabilities(missing: Record<string, unknown>): OutcomeError {
  return {
    code: MISSING_REQUIRED_CLIENT_CAPABILITY,
    message: `Client lacks capabilities this request requires: ${Object.keys(missing).join(', ')}`,
    data: { requiredCapabilities: missing },
  };
}

/**
 * An addressed ask its caller has no room for: it already has `waiting` questions waiting for
 * answers, and this ask's `asked` would pass MAX_WAITING_QUESTIONS_PER_PRINCIPAL. -32000, the
 * capacity code; `data` names the budget and its value.
 */
export function waitingQuestionsExceeded(
  exchangeId: string,
  round: number,
  budget: { limit: number; waiting: number; asked: number },
): OutcomeError {
  const { limit, waiting, asked } = budget;
  return {
    code: SERVER_BUSY,
    message: `Exchange ended: its caller has ${waiting} questions waiting for answers, and the ${asked} this ask adds would pass MAX_WAITING_QUESTIONS_PER_PRINCIPAL (${limit}); ask again once some are answered`,
    data: { exchangeId, round, budget: 'MAX_WAITING_QUESTIONS_PER_PRINCIPAL', limit, waiting, asked },
  };
}
