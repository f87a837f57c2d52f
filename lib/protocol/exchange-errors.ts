/**
 * JSON-RPC errors that end an exchange. Pure data and functions: the workflow bundle imports it.
 *
 * The codes sit in the implementation-defined range the 2026-07-28 revision leaves to servers
 * (-32000..-32019). -32001 is the code clients already know as "request timed out".
 */
import type { OutcomeError } from '../exchange/types';

export const EXCHANGE_EXPIRED = -32001;
export const ROUND_CAP_EXCEEDED = -32011;
export const EXCHANGE_CANCELLED = -32012;

export function exchangeExpired(exchangeId: string, round: number, roundTimeoutMs: number): OutcomeError {
  return {
    code: EXCHANGE_EXPIRED,
    message: `Exchange expired: the answers to round ${round} did not arrive within ${roundTimeoutMs} ms`,
    data: { exchangeId, round, roundTimeoutMs },
  };
}

export function exchangeCancelled(exchangeId: string, reason?: string): OutcomeError {
  return {
    code: EXCHANGE_CANCELLED,
    message: `Exchange cancelled by the client${reason ? `: ${reason}` : ''}`,
    data: { exchangeId },
  };
}

/** A round whose handler never finished (it hung or kept crashing the worker). -32603. */
export function roundFailed(exchangeId: string, round: number): OutcomeError {
  return { code: -32603, message: `Exchange failed: round ${round} could not run to completion`, data: { exchangeId, round } };
}

export function roundCapExceeded(exchangeId: string, maxRounds: number): OutcomeError {
  return {
    code: ROUND_CAP_EXCEEDED,
    message: `Exchange ended: the handler asked for input more than ${maxRounds} times`,
    data: { exchangeId, maxRounds },
  };
}
