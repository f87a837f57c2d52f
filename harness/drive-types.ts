/**
 * What the in-process harness (drive.ts) hands a test: each step of an exchange (its ask, its
 * result or its error, the notifications its handler sent), and the options of a drive and of an
 * answer. Types only.
 */
import type {
  CallToolResult,
  ClientCapabilities,
  GetPromptResult,
  InputRequest,
  LoggingLevel,
  ReadResourceResult,
  ElicitResult,
} from '@modelcontextprotocol/server';
import type { HandlerSet, ToolHandler } from '@durable-mcp/handlers';
import type { Principal } from '../lib/exchange/principal';

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
  /**
   * Answers this step's questions addressed to someone else (`elicitFrom`) as `answerer` (or as
   * the exchange's own caller, `'caller'`, for a question to `answerer.caller()`), as the answer
   * page or API would: each elicitation result under its key. Resolves to the next step once
   * every question is decided (the same step while an `eachOf` waits for others), or to a refused
   * step whose `error.data.refusal` says why (`not-addressed`, `caller-excluded`, `closed`,
   * `late`, ...; `data.problems` for content the schema refuses).
   */
  answerAs(
    answerer: Answerer | 'caller',
    responses: Record<string, ElicitResult>,
    options?: { afterMs?: number },
  ): Promise<Step<R>>;
  /**
   * Lets this ask's wait run out with nobody answering (the clock moves past its deadline):
   * resolves to the step the expiry leads to, the exchange ended as expired (-32001), or, for
   * questions asked with `onExpiry: 'handler'`, the handler's next round with `ctx.expired`.
   */
  expire(): Promise<Step<R>>;
}

/**
 * Who answers a question in a test: a person signed in at the answer page (an issuer and subject),
 * or, with `service: true`, a service at the answer API whose client id is `subject` (what
 * `answerer.service(subject)` addresses); with the scopes and groups that admit them.
 */
export interface Answerer {
  issuer: string;
  subject: string;
  service?: boolean;
  scopes?: string[];
  groups?: string[];
  name?: string;
  /**
   * How they signed in at the answer page, for a question that requires it (`requireSignIn`): the
   * `acr` and `amr` their ID token named, and how long before the answer they signed in (`ageS`,
   * 0 when absent). Absent: a sign-in that said none of it, which meets no requirement.
   */
  signIn?: { acr?: string; amr?: string[]; ageS?: number };
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
  /** The longest a question addressed to someone else may wait (MAX_QUESTION_WAIT_MS). Default: the service's, 24 hours. */
  maxQuestionWaitMs?: number;
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
