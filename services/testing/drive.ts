/**
 * Drives a handler round by round, in this process, without Temporal or Postgres: the way a
 * 2026-07-28 client drives it through the service (call, read the ask, retry with the answers and
 * the requestState it was given, read the result), with the rules the service applies at each leg
 * taken from the service's own code rather than restated here:
 *
 * - the request and the handler set are checked as the service checks them at start-up and at the
 *   first leg (SDK schemas, arguments against the tool's `inputSchema`, unknown targets);
 * - each round's handler runs through the worker's own execution (`executeHandler`) with the
 *   context a round gets (`roundResponses`, the handler's state sealed and opened again with a
 *   throwaway key), and its ask passes the worker's rules (`applyAskRules`: capabilities the client
 *   did not declare, the round cap);
 * - each answer passes the API's rules: the requestState is verified (`RequestStateCodec`), then
 *   classified like a real retry (`classifyAnswer`: answers only under the keys asked, the same
 *   answers again get the same outcome, different ones are refused, answers after the round's
 *   deadline are refused), and the workflow's own bookkeeping (`exchange-state.ts`) counts asks.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type {
  CallToolResult,
  ClientCapabilities,
  GetPromptResult,
  InputRequest,
  LoggingLevel,
  ReadResourceResult,
} from '@modelcontextprotocol/server';
import { applyAskRules, openHandlerState, roundResponses, summarize } from '../../activities/round-rules';
import { executeHandler } from '../../activities/handler-execution';
import { createArgumentChecks, type ArgumentChecks } from '../api/src/methods/argument-checks';
import { readOriginalRequest } from '../api/src/methods/original-request';
import { answeredDifferently, classifyAnswer, requestDigestOf } from '../api/src/legs/leg-decisions';
import { checkHandlerSet } from '../stack/handler-set-check';
import { CONFIG_VARIABLES } from '../../lib/config';
import type { RoundRecord } from '../../lib/db/exchange-store';
import { ANONYMOUS_PRINCIPAL, detailsOf, type Principal } from '../../lib/exchange/principal';
import type { ExchangeInput, ExchangeMethod, OriginalRequest, RoundOutcome } from '../../lib/exchange/types';
import type { HandlerSet, PromptHandler, ToolHandler } from '@durable-mcp/handlers';
import { requireHandler, roundActivityFor } from '../../lib/handler-set/lookup';
import { createLogger } from '../../lib/log';
import { fromOutcome, invalidRequestState } from '../../lib/protocol/error-catalog';
import { exchangeExpired } from '../../lib/protocol/exchange-errors';
import { RpcError } from '../../lib/protocol/rpc-error';
import { createHandlerStateCodec, type HandlerStateCodec } from '../../lib/state/handler-state';
import { createRequestStateCodec, RequestStateError, type RequestStateCodec } from '../../lib/state/request-state';
import { SealError, createSealer } from '../../lib/state/sealer';
import { unverifiableHandlerState } from '../../activities/round-rules';
import {
  acceptAnswers,
  initialState,
  mayAsk,
  recordRound,
  takeAnswers,
  type ExchangeState,
} from '../../workflows/exchange-state';

/** A JSON-RPC error, as the client would receive it: the service's own code, message and data. */
export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** What the handler asked for, as the client sees it, plus what only a test may look at. */
export interface Ask {
  /** The embedded requests (`elicitation/create`, `sampling/createMessage`, `roots/list`), keyed as the handler named them: answer under the same keys. */
  inputRequests: Record<string, InputRequest>;
  /**
   * The requestState the client is handed: the service's sealed pointer to this ask, bound to the
   * exchange, the round, the call's arguments and the principal. `answer()` sends it back; pass a
   * different one in `AnswerOptions.requestState` to see what a tampered or foreign one gets.
   */
  requestState: string;
  /** The state the handler returned with its ask (`inputRequired({ requestState })`), before sealing; never sent to a client. */
  handlerState?: string;
}

/** A notification the handler sent during a round (`ctx.progress`, `ctx.sendLog`, `ctx.closeStream`). */
export type HandlerNotification =
  | { kind: 'progress'; progress: number; total?: number; message?: string }
  | { kind: 'log'; level: LoggingLevel; data: unknown; logger?: string }
  | { kind: 'close-stream' };

/**
 * One leg's outcome: the ask of a round, the final result, or an error. Exactly one of `ask`,
 * `result` and `error` is set.
 */
export interface Step<R> {
  readonly exchangeId: string;
  /** The round whose outcome this is (for a refused answer: the round it tried to answer). */
  readonly round: number;
  readonly kind: 'ask' | 'complete' | 'error';
  readonly ask?: Ask;
  /** The handler's final result (a tool's failure is a result with `isError: true`, as MCP has it). */
  readonly result?: R;
  /** The JSON-RPC error the client gets, with the service's code and message. */
  readonly error?: JsonRpcError;
  /**
   * True when `error` refused this leg only (a requestState that fails verification, different
   * answers to a round already answered): the exchange is unchanged, and the previous step can
   * still be answered. False when the error ended the exchange.
   */
  readonly refused: boolean;
  /** Whether the exchange has ended (a result, or an error that ends it). */
  readonly ended: boolean;
  /** The keys of the answers this leg sent that its ask did not ask for: the service drops them, as the spec says. */
  readonly ignoredKeys: string[];
  /** What the handler sent during this round, in order (what a client listening for all of it would get). */
  readonly notifications: HandlerNotification[];
  /** The exchange's asks so far (the round cap counts these). */
  readonly asks: number;
  /**
   * Answers this step's ask, as a client's retry: `responses` are raw result objects keyed as
   * asked (`{ action: 'accept', content: {...} }` for an elicitation). Resolves to the next step;
   * throws only when there is nothing to answer (the step is not an ask).
   */
  answer(responses: Record<string, unknown>, options?: AnswerOptions): Promise<Step<R>>;
}

export type ToolStep = Step<CallToolResult>;
export type PromptStep = Step<GetPromptResult>;
export type ResourceStep = Step<ReadResourceResult>;

export interface DriveOptions {
  /**
   * What the client declares (`elicitation`, `sampling`, `roots`). Default: nothing, like a client
   * that declared nothing, so an ask is refused with -32021 until the test declares what it needs.
   */
  capabilities?: ClientCapabilities;
  /** Who calls (`ctx.principal`). Default: the anonymous principal of a service with AUTH_MODE=off. */
  principal?: Principal;
  /** Answers sent with the first call, before any ask (round 1's `ctx.inputResponses`). */
  inputResponses?: Record<string, unknown>;
  /** The round cap: asks one exchange may make (MAX_ROUNDS). Default: the service's default, 8. */
  maxRounds?: number;
  /** How long each ask waits for its answers (ROUND_TIMEOUT_MS). Default: the service's default, 600 000 ms. */
  roundTimeoutMs?: number;
  /** The exchange's id (`ctx.exchangeId`). Default: a random UUID, as the service gives. */
  exchangeId?: string;
}

export interface AnswerOptions {
  /** The requestState to send back. Default: the one this step's ask carries. */
  requestState?: string;
  /** What the answering leg declares. Default: what the first call declared. */
  capabilities?: ClientCapabilities;
  /**
   * How long after the ask the answer is sent (ms, on the harness's own clock). Past the round
   * timeout, the exchange has expired by then and the answer gets the service's -32001.
   */
  afterMs?: number;
}

/** A handler set, or the tools (prompts) to serve as one. */
export type Handlers = HandlerSet | ToolHandler | ReadonlyArray<ToolHandler>;

const defaultOf = (name: string): number => Number(CONFIG_VARIABLES.find((v) => v.name === name)?.default);
/** The service's defaults (lib/config.ts). */
export const DEFAULT_ROUND_TIMEOUT_MS = defaultOf('ROUND_TIMEOUT_MS');
export const DEFAULT_MAX_ROUNDS = defaultOf('MAX_ROUNDS');
const REQUEST_STATE_TTL_MS = defaultOf('REQUEST_STATE_TTL_MS');
const LOCAL_HANDLER_TIMEOUT_MS = defaultOf('LOCAL_HANDLER_TIMEOUT_MS');
const HANDLER_TIMEOUT_MS = defaultOf('HANDLER_TIMEOUT_MS');

const silent = createLogger('handler-test', 'silent');

/** Sets already checked, with their argument checks (a set is checked once, as the service checks it once at start-up). */
const checked = new WeakMap<HandlerSet, ArgumentChecks>();

function asHandlerSet(handlers: Handlers): HandlerSet {
  if (Array.isArray(handlers)) return { name: 'test', tools: handlers as ToolHandler[] };
  if ('tool' in (handlers as ToolHandler)) return { name: 'test', tools: [handlers as ToolHandler] };
  return handlers as HandlerSet;
}

/** The set, checked as the service checks it when it starts (throws `InvalidHandlerSet` naming each problem). */
function argumentChecksOf(set: HandlerSet): ArgumentChecks {
  let checks = checked.get(set);
  if (!checks) {
    checkHandlerSet(set);
    checks = createArgumentChecks(set);
    checked.set(set, checks);
  }
  return checks;
}

/**
 * Calls tool `name` with `args` and runs its first round.
 *
 * @example
 * ```ts
 * const run = await driveTool(handlers, 'approve_refund', { amount: 40 }, { capabilities: { elicitation: {} } });
 * expect(run.ask?.inputRequests.approval?.method).toBe('elicitation/create');
 * const next = await run.answer({ approval: { action: 'accept', content: { ok: true } } });
 * expect(next.result?.content).toEqual([{ type: 'text', text: 'Refunded 40' }]);
 * ```
 */
export function driveTool(
  handlers: Handlers,
  name: string,
  args: Record<string, unknown> = {},
  options: DriveOptions = {},
): Promise<ToolStep> {
  return drive<CallToolResult>(asHandlerSet(handlers), 'tools/call', { name, arguments: args }, options);
}

/** Gets prompt `name` with `args` and runs its first round (see `driveTool`). */
export function drivePrompt(
  handlers: HandlerSet | PromptHandler,
  name: string,
  args: Record<string, string> = {},
  options: DriveOptions = {},
): Promise<PromptStep> {
  const set = 'prompt' in handlers ? { name: 'test', tools: [], prompts: [handlers] } : handlers;
  return drive<GetPromptResult>(set, 'prompts/get', { name, arguments: args }, options);
}

/** Reads resource `uri` (a static resource or one matching a template) and runs its first round (see `driveTool`). */
export function driveResource(handlers: HandlerSet, uri: string, options: DriveOptions = {}): Promise<ResourceStep> {
  return drive<ReadResourceResult>(handlers, 'resources/read', { uri }, options);
}

const toJson = (error: RpcError): JsonRpcError => error.toJson();

async function drive<R>(
  set: HandlerSet,
  method: ExchangeMethod,
  params: Record<string, unknown>,
  options: DriveOptions,
): Promise<Step<R>> {
  const checks = argumentChecksOf(set);
  const exchangeId = options.exchangeId ?? randomUUID();
  const refusedAtStart = (error: unknown): Step<R> => {
    if (!(error instanceof RpcError)) throw error;
    return refusal<R>(exchangeId, 1, 0, toJson(error));
  };
  let request: OriginalRequest;
  try {
    request = readOriginalRequest(method, params);
    requireHandler(set, request);
    // A tool's arguments that fail its inputSchema are answered with a result, as the service does.
    const refused = checks.refusal(request);
    if (refused) return ended<R>(exchangeId, 1, 0, { kind: 'complete', result: refused }, []);
  } catch (error) {
    return refusedAtStart(error);
  }
  const exchange = new Exchange(set, request, exchangeId, options);
  return exchange.start<R>();
}

function refusal<R>(exchangeId: string, round: number, asks: number, error: JsonRpcError): Step<R> {
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
  };
}

function ended<R>(
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
  };
}

/** One exchange: its rounds' records (what Postgres would hold), the workflow's state and a clock. */
class Exchange {
  private readonly state: ExchangeState = initialState();
  private readonly records = new Map<number, RoundRecord>();
  private readonly steps = new Map<number, Step<unknown>>();
  private readonly requestState: RequestStateCodec;
  private readonly handlerState: HandlerStateCodec;
  private readonly input: ExchangeInput;
  private readonly principal: Principal;
  private readonly binding: { requestDigest: string; principal: string };
  /** The harness's clock: real time when the exchange started, plus every `afterMs` since. */
  private elapsedMs = 0;
  private readonly startedAt = Date.now();
  private sealedHandlerState: string | undefined;

  constructor(
    private readonly set: HandlerSet,
    request: OriginalRequest,
    exchangeId: string,
    options: DriveOptions,
  ) {
    // A throwaway key: what a test's state can be opened with lives and dies with this exchange.
    const sealer = createSealer([{ kid: 'test', key: randomBytes(32) }]);
    this.requestState = createRequestStateCodec(sealer, REQUEST_STATE_TTL_MS, () => this.now());
    this.handlerState = createHandlerStateCodec(sealer);
    this.principal = options.principal ?? ANONYMOUS_PRINCIPAL;
    this.input = {
      exchangeId,
      era: 'modern',
      request,
      principal: this.principal.id,
      principalDetails: detailsOf(this.principal),
      clientCapabilities: (options.capabilities ?? {}) as Record<string, unknown>,
      ...(options.inputResponses ? { initialResponses: options.inputResponses } : {}),
      roundTimeoutMs: options.roundTimeoutMs ?? DEFAULT_ROUND_TIMEOUT_MS,
      maxRounds: options.maxRounds ?? DEFAULT_MAX_ROUNDS,
      roundActivity: roundActivityFor(set, request),
    };
    this.binding = { requestDigest: requestDigestOf(request), principal: this.principal.id };
  }

  private now(): number {
    return this.startedAt + this.elapsedMs;
  }

  start<R>(): Promise<Step<R>> {
    return this.runRound<R>(1, undefined, this.input.clientCapabilities, []);
  }

  /** Runs round `round`'s handler as the worker's round activity does, and records its outcome. */
  private async runRound<R>(
    round: number,
    answers: { responses: Record<string, unknown>; digest: string } | undefined,
    capabilities: Record<string, unknown>,
    ignoredKeys: string[],
  ): Promise<Step<R>> {
    const { exchangeId } = this.input;
    const notifications: HandlerNotification[] = [];
    let outcome: RoundOutcome;
    let handlerState: string | undefined;
    try {
      const requestState = openHandlerState(this.handlerState, this.sealedHandlerState, { exchangeId, round });
      outcome = await executeHandler(
        this.set,
        this.input,
        {
          exchangeId,
          round,
          inputResponses: roundResponses(this.input, round, answers?.responses),
          requestState,
          clientCapabilities: capabilities,
          principal: this.principal,
          log: silent,
          signal: new AbortController().signal,
          progress: async (progress, total, message) => {
            notifications.push({ kind: 'progress', progress, total, message });
          },
          sendLog: async (level, data, logger) => {
            notifications.push({ kind: 'log', level, data, logger });
          },
          closeStream: async () => {
            notifications.push({ kind: 'close-stream' });
          },
        },
        this.input.roundActivity === 'regular' ? HANDLER_TIMEOUT_MS : LOCAL_HANDLER_TIMEOUT_MS,
      );
      if (outcome.kind === 'ask') handlerState = outcome.sealedHandlerState;
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      outcome = { kind: 'error', error: unverifiableHandlerState() };
    }
    outcome = applyAskRules(outcome, {
      exchangeId,
      round,
      maxRounds: this.input.maxRounds,
      capabilities,
      mayAsk: mayAsk(this.state, this.input.maxRounds),
      handlerState: this.handlerState,
    });
    const recordedAt = new Date(this.now());
    const record: RoundRecord = {
      exchangeId,
      round,
      outcome,
      ...(answers ? { answersDigest: answers.digest } : {}),
      recordedAt,
      ...(outcome.kind === 'ask' ? { deadlineAt: new Date(recordedAt.getTime() + this.input.roundTimeoutMs) } : {}),
    };
    this.records.set(round, record);
    const summary = summarize(record, outcome);
    recordRound(this.state, summary);
    this.sealedHandlerState = summary.sealedHandlerState;
    const step = this.stepOf<R>(record, notifications, ignoredKeys, handlerState);
    this.steps.set(round, step as Step<unknown>);
    return step;
  }

  private stepOf<R>(
    record: RoundRecord,
    notifications: HandlerNotification[],
    ignoredKeys: string[],
    handlerState?: string,
  ): Step<R> {
    const { outcome, round } = record;
    if (outcome.kind !== 'ask')
      return ended<R>(record.exchangeId, round, this.state.asks, outcome, notifications, ignoredKeys);
    const requestState = this.requestState.mint({ exchangeId: record.exchangeId, round, kind: 'ask', ...this.binding });
    return {
      exchangeId: record.exchangeId,
      round,
      kind: 'ask',
      ask: {
        inputRequests: outcome.inputRequests as Record<string, InputRequest>,
        requestState,
        ...(handlerState !== undefined ? { handlerState } : {}),
      },
      refused: false,
      ended: false,
      ignoredKeys,
      notifications,
      asks: this.state.asks,
      answer: (responses, options = {}) =>
        this.answer<R>(responses, { ...options, requestState: options.requestState ?? requestState }),
    };
  }

  /** The round timer: an ask whose deadline has passed with no answers ends the exchange as expired. */
  private fireTimers(): void {
    const round = this.state.awaiting;
    if (round === undefined || this.state.deadlineAt === undefined || this.now() <= this.state.deadlineAt) return;
    const outcome: RoundOutcome = {
      kind: 'error',
      error: exchangeExpired(this.input.exchangeId, round, this.input.roundTimeoutMs),
    };
    const record: RoundRecord = {
      exchangeId: this.input.exchangeId,
      round: round + 1,
      outcome,
      recordedAt: new Date(this.now()),
    };
    this.records.set(round + 1, record);
    recordRound(this.state, summarize(record));
  }

  /** A retry that answers an ask, through the API's checks, then the workflow's. */
  private async answer<R>(
    responses: Record<string, unknown>,
    options: AnswerOptions & { requestState: string },
  ): Promise<Step<R>> {
    this.elapsedMs += Math.max(0, options.afterMs ?? 0);
    let round: number;
    try {
      const claims = this.requestState.verify(options.requestState, this.binding);
      // A requestState of another exchange opens only with that exchange's key: here, it cannot.
      if (claims.exchangeId !== this.input.exchangeId || claims.kind !== 'ask') throw new RequestStateError('claims');
      round = claims.round;
    } catch (error) {
      if (!(error instanceof RequestStateError)) throw error;
      return refusal<R>(this.input.exchangeId, this.state.round, this.state.asks, toJson(invalidRequestState()));
    }
    this.fireTimers();
    const ask = this.records.get(round);
    const next = this.records.get(round + 1);
    const asked = ask?.outcome.kind === 'ask' ? Object.keys(ask.outcome.inputRequests) : [];
    const ignoredKeys = Object.keys(responses).filter((key) => !asked.includes(key));
    const verdict = classifyAnswer({ ask, next, inputResponses: responses, now: this.now() });
    switch (verdict.kind) {
      case 'stale':
        return refusal<R>(this.input.exchangeId, round, this.state.asks, toJson(invalidRequestState()));
      case 'mismatch':
        return refusal<R>(this.input.exchangeId, round, this.state.asks, toJson(answeredDifferently(round)));
      case 'retry': {
        // The same leg again: the outcome it had, without running anything twice.
        const step = this.steps.get(round + 1) as Step<R> | undefined;
        return step ? { ...step, ignoredKeys, notifications: [] } : this.stepOf<R>(verdict.record, [], ignoredKeys);
      }
      case 'late':
        return refusal<R>(
          this.input.exchangeId,
          round,
          this.state.asks,
          toJson(fromOutcome(exchangeExpired(this.input.exchangeId, round, verdict.roundTimeoutMs))),
        );
      case 'fresh':
        break;
    }
    const capabilities = (options.capabilities ?? this.input.clientCapabilities) as Record<string, unknown>;
    const accepted = acceptAnswers(this.state, {
      round,
      responses: verdict.responses,
      digest: verdict.digest,
      clientCapabilities: capabilities,
      sentAt: this.now(),
    });
    if (accepted !== 'accepted')
      throw new Error(`round ${round}: the exchange did not take these answers (${accepted})`);
    const taken = takeAnswers(this.state);
    return this.runRound<R>(round + 1, taken, capabilities, ignoredKeys);
  }
}
