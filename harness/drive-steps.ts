/**
 * The in-process harness's steps that end a drive (a refusal, an ended exchange), as a client would
 * read them, and the service's defaults it runs with (lib/config.ts).
 */
import type { HandlerContext, HandlerSet } from '@durable-mcp/handlers';
import { CONFIG_VARIABLES } from '../lib/config';
import { detailsOf, personIdOf, type Principal } from '../lib/exchange/principal';
import type { ExchangeInput, OriginalRequest, RoundOutcome } from '../lib/exchange/types';
import { roundActivityFor } from '../lib/handler-set/lookup';
import { createLogger } from '../lib/log';
import { fromOutcome } from '../lib/protocol/error-catalog';
import type { RpcError } from '../lib/protocol/rpc-error';
import type { DriveOptions, HandlerNotification, JsonRpcError, Step } from './drive-types';

const defaultOf = (name: string): number => Number(CONFIG_VARIABLES.find((v) => v.name === name)?.default);
/** The service's defaults (lib/config.ts). */
export const DEFAULT_ROUND_TIMEOUT_MS = defaultOf('ROUND_TIMEOUT_MS');
export const DEFAULT_MAX_QUESTION_WAIT_MS = defaultOf('MAX_QUESTION_WAIT_MS');
export const DEFAULT_MAX_ROUNDS = defaultOf('MAX_ROUNDS');
export const REQUEST_STATE_TTL_MS = defaultOf('REQUEST_STATE_TTL_MS');
export const LOCAL_HANDLER_TIMEOUT_MS = defaultOf('LOCAL_HANDLER_TIMEOUT_MS');
export const HANDLER_TIMEOUT_MS = defaultOf('HANDLER_TIMEOUT_MS');
export const MAX_ROUND_INPUT_BYTES = defaultOf('MAX_ROUND_INPUT_BYTES');

export const silent = createLogger('handler-test', 'silent');

export const toJson = (error: RpcError): JsonRpcError => error.toJson();

export function refusal<R>(exchangeId: string, round: number, asks: number, error: JsonRpcError): Step<R> {
  return {
    exchangeId,
    round,
    kind: 'error',
    error,
    refused: true,
    ended: false,
    ignoredKeys: [],
    notifications: [],
    asks,
    answer: () =>
      Promise.reject(new Error(`round ${round}: this step was refused (${error.message}); nothing to answer`)),
    answerAs: () =>
      Promise.reject(new Error(`round ${round}: this step was refused (${error.message}); answer the step before it`)),
    expire: () =>
      Promise.reject(new Error(`round ${round}: this step was refused (${error.message}); nothing waits to expire`)),
  };
}

export function ended<R>(
  exchangeId: string,
  round: number,
  asks: number,
  outcome: Exclude<RoundOutcome, { kind: 'ask' }>,
  notifications: HandlerNotification[],
  ignoredKeys: string[] = [],
): Step<R> {
  const error = outcome.kind === 'error' ? toJson(fromOutcome(outcome.error)) : undefined;
  return {
    exchangeId,
    round,
    kind: outcome.kind,
    ...(outcome.kind === 'complete' ? { result: outcome.result as R } : {}),
    ...(error ? { error } : {}),
    refused: false,
    ended: true,
    ignoredKeys,
    notifications,
    asks,
    answer: () => Promise.reject(new Error(`round ${round}: the exchange has ended; nothing to answer`)),
    answerAs: () => Promise.reject(new Error(`round ${round}: the exchange has ended; nothing to answer`)),
    expire: () => Promise.reject(new Error(`round ${round}: the exchange has ended; nothing waits to expire`)),
  };
}

/** The exchange's input as the API would start it for this drive (the service's defaults where the options say nothing). */
export function driveInput(
  set: HandlerSet,
  request: OriginalRequest,
  exchangeId: string,
  options: DriveOptions,
  principal: Principal,
): ExchangeInput {
  return {
    exchangeId,
    era: 'modern',
    request,
    principal: principal.id,
    principalDetails: detailsOf(principal),
    callerPersonId: personIdOf(principal),
    clientCapabilities: (options.capabilities ?? {}) as Record<string, unknown>,
    ...(options.inputResponses ? { initialResponses: options.inputResponses } : {}),
    roundTimeoutMs: options.roundTimeoutMs ?? DEFAULT_ROUND_TIMEOUT_MS,
    maxRounds: options.maxRounds ?? DEFAULT_MAX_ROUNDS,
    roundActivity: roundActivityFor(set, request),
  };
}

/** A round's handler time bound, as the worker's: regular rounds get HANDLER_TIMEOUT_MS, local ones LOCAL_HANDLER_TIMEOUT_MS. */
export function handlerTimeoutOf(input: ExchangeInput): number {
  return input.roundActivity === 'regular' ? HANDLER_TIMEOUT_MS : LOCAL_HANDLER_TIMEOUT_MS;
}

/** A round context's notifiers that keep what the handler sends, for the step to show. */
export function notifyInto(
  notifications: HandlerNotification[],
): Pick<HandlerContext, 'progress' | 'sendLog' | 'closeStream'> {
  return {
    progress: async (progress, total, message) => {
      notifications.push({ kind: 'progress', progress, total, message });
    },
    sendLog: async (level, data, logger) => {
      notifications.push({ kind: 'log', level, data, logger });
    },
    closeStream: async () => {
      notifications.push({ kind: 'close-stream' });
    },
  };
}
