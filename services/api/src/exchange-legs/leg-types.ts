/**
 * What the legs of an exchange are made of: the leg a method hands over (its original request
 * parsed once, with what identifies and bounds it), the options of one leg's wait, the limits the
 * legs keep, and what the leg modules depend on. Types only.
 */
import type { ExchangeStore } from '../../../../lib/db/exchange-store';
import type { RoundRecord } from '../../../../lib/exchange/types';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import type { TaskRecord, TaskStore } from '../../../../lib/db/task-store';
import type { Principal } from '../../../../lib/exchange/principal';
import type { Era, ExchangeOrigin, Listening, OriginalRequest } from '../../../../lib/exchange/types';
import type { Logger } from '../../../../lib/log';
import type { RequestStateCodec } from '../../../../lib/state/request-state';
import type { ExchangeGateway } from '../../../../lib/exchange-client/exchange-gateway';
import type { ExchangeReconciler } from '../../../../lib/exchange-client/exchange-reconciler';
import type { RoundResult } from '../../../../lib/exchange-rules/leg-rules';
import type { LegCount, Patience } from '../../../../lib/exchange-rules/client-patience';
import type { PendingOn } from '../../../../lib/questions/pending-result';
import type { QuotaGate } from './quotas';

export interface ExchangeLeg {
  /**
   * The original request, as the method read it once against the SDK's schema: its method, its
   * target and the params that define it (without `_meta`, `inputResponses` and `requestState`).
   */
  request: OriginalRequest;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  clientCapabilities: Record<string, unknown>;
  /** Who sends the leg: a retry's requestState must have been minted for the same principal. */
  principal: Principal;
  era: Era;
  /** What this leg listens for while its round runs (progress token, log level). */
  listening?: Listening;
  /** Who sent it (client, session tag, protocol version), for what operators see in Temporal. */
  origin?: ExchangeOrigin;
  /**
   * When this call runs as a task (its tool supports tasks and this leg's client declared the
   * extension): at its first leg, or at the retry that answers its first ask.
   */
  taskBegins?: 'at-call' | 'after-input';
  /**
   * A first leg that joins a running exchange of its caller's instead of starting one: the exchange
   * an `await_answer` call names (its owner checked by the method).
   */
  attachTo?: string;
  /**
   * A first leg that may join the exchange of the same call, already running: by its idempotency
   * key, or as an identical call within `reattachWindowMs` of that exchange's start (exchange-joins-pg.ts).
   */
  joins?: { idempotencyKey?: string; reattachWindowMs?: number };
  /**
   * Where its client's retry loop stops (client-patience.ts), and what the call gets there instead
   * of one more input-required result: the pending result, or its withdrawal (the tool's `longWait`).
   * Unset: every result is sent as it is (prompts, resources, tasks).
   */
  patience?: { patience: Patience; longWait: LongWait; tool: string; repeatReattaches: boolean };
}

/** What a call gets when its wait outlasts its client's patience (ToolHandler `longWait`). */
export type LongWait = 'pending-result' | 'error';

export interface LegOptions {
  signal?: AbortSignal;
  /**
   * Called once the round this leg waits for is known, so the caller can follow its notifications
   * (after `afterEvent`, the last one an earlier leg of this client was sent).
   */
  onRound?: (exchangeId: string, round: number, afterEvent?: number) => void;
  /**
   * Called when the leg goes on waiting past an ask addressed to someone else (`record`): the caller
   * has nothing to answer, and can be told who the call waits for.
   */
  onQuestions?: (record: RoundRecord) => void;
}

/**
 * The answer page, when it is on (ANSWER_OIDC_ISSUER): a question addressed to the caller is sent
 * to a client that takes URL-mode elicitations as one pointing at its page.
 */
export interface CallerPages {
  /** The answer page's origin (ANSWER_PUBLIC_URL). */
  origin: string;
  /** A question's page, absolute under it. */
  pageUrl(questionId: string): string;
  /** The caller's decline or cancel of a question it was sent in URL mode, taken as the page takes any answer. */
  refuseAsCaller(questionId: string, action: 'decline' | 'cancel'): Promise<void>;
}

/** What a requestState is bound to besides its exchange and round: the call, by its digest, and the caller. */
export interface LegBinding {
  requestDigest: string;
  principal: string;
}

/** What a leg's round resolves to, or, for a call that is a task, its task. */
export type LegOutcome = RoundResult | { kind: 'task'; task: TaskRecord };

/**
 * What a call whose wait outlasted its client's patience gets instead of one more input-required
 * result: what it waits on (`withdrawn`: the tool took an error instead, and the exchange was cancelled).
 */
export interface Outlasted {
  kind: 'outlasted';
  exchangeId: string;
  on: PendingOn;
  withdrawn: boolean;
  tool: string;
  repeatReattaches: boolean;
}

/** What a leg's client is sent: its outcome, or past its client's patience, a complete result instead. */
export type SentOutcome = LegOutcome | Outlasted;

/**
 * What a leg resolves to, with the binding it was verified or started with, so the requestState
 * minted for its answer is bound to the same digest (computed once per leg), and the count of its
 * client's loop after it, minted into that requestState.
 */
export type LegResult = SentOutcome & { binding: LegBinding; count: LegCount };

export interface LegLimits {
  roundTimeoutMs: number;
  maxRounds: number;
  httpWaitMs: number;
  /** How long a leg waits on a question addressed to someone else (QUESTION_HOLD_MS). */
  questionHoldMs: number;
  maxRoundInputBytes: number;
  /** What this process may keep of the asks it handed out, so their answers signal at once (SERVED_ASKS_MAX_BYTES; served-asks.ts). */
  servedAsksMaxBytes: number;
  /** How many times a retried answer is checked against the workflow per round (MAX_REPEATED_ANSWERS). */
  maxRepeatedAnswers: number;
  maxTargetLength: number;
  maxRunningExchanges: number;
  maxRunningExchangesPerPrincipal: number;
  maxInflightLegs: number;
  maxInflightLegsPerPrincipal: number;
  capacityRetryAfterS: number;
  /** Every task's TTL (TASK_TTL_MS) and the poll interval its client is given (TASK_POLL_INTERVAL_MS). */
  taskTtlMs: number;
  taskPollIntervalMs: number;
}

export interface ExchangeLegsDeps {
  gateway: ExchangeGateway;
  store: ExchangeStore;
  waiter: OutcomeWaiter;
  reconciler: ExchangeReconciler;
  requestState: RequestStateCodec;
  tasks: TaskStore;
  limits: LegLimits;
  log: Logger;
  /** The version of the handlers this API serves, recorded with every exchange it starts (its row, its workflow). */
  handlerVersion?: string;
  /** The answer page, when it is on: questions addressed to the caller go to its client in URL mode. */
  callerPages?: CallerPages;
  /** Question webhooks are on (WEBHOOK_URLS), with the origin of the questions' pages. */
  questionEvents?: { pageBase: string };
  /** The quotas of calls, when any rule is declared: every new exchange is taken from them first (quotas.ts). */
  quotas?: QuotaGate;
}
