/**
 * The exchange read model in Postgres: one row per exchange, one per round outcome.
 * The worker writes (first write wins, then NOTIFY); the API reads.
 */
import type { ExchangeEvent, ExchangeInput, RoundOutcome, RoundRecord } from '../exchange/types';
import type { ExchangeTraceContext } from '../tracing/exchange-trace';

export const OUTCOME_CHANNEL = 'exchange_outcome';
export const EVENT_CHANNEL = 'exchange_event';

/**
 * The record an announcement on `OUTCOME_CHANNEL` carries: its payload is `<exchange id>:<round>`,
 * then, when the record fits Postgres's payload limit, a newline and this JSON (timestamps as epoch
 * milliseconds, the precision a read of the row gives too). Undefined for anything that does not
 * read as one, so the listener reads the row instead.
 */
export function decodeAnnouncedRound(exchangeId: string, round: number, body: string): RoundRecord | undefined {
  let carried: { outcome?: unknown; answers_digest?: unknown; recorded_at?: unknown; deadline_at?: unknown };
  try {
    carried = JSON.parse(body) as typeof carried;
  } catch {
    return undefined;
  }
  const { outcome, answers_digest: digest, recorded_at: recordedAt, deadline_at: deadlineAt } = carried;
  if (typeof outcome !== 'object' || outcome === null || typeof recordedAt !== 'number') return undefined;
  if (!(digest === null || typeof digest === 'string')) return undefined;
  if (!(deadlineAt === null || typeof deadlineAt === 'number')) return undefined;
  return {
    exchangeId,
    round,
    outcome: outcome as RoundOutcome,
    answersDigest: digest ?? undefined,
    recordedAt: new Date(recordedAt),
    ...(deadlineAt === null ? {} : { deadlineAt: new Date(deadlineAt) }),
  };
}

export interface StoredEvent {
  id: number;
  event: ExchangeEvent;
}

export interface NewRound {
  exchange: ExchangeInput;
  workflowId: string;
  round: number;
  answers?: Record<string, unknown>;
  answersDigest?: string;
  outcome: RoundOutcome;
  durationMs?: number;
  /** An ask's deadline for its answers. */
  deadlineAt?: Date;
}

/** An ending the API records for an exchange whose workflow closed without recording one. */
export interface NewEnding {
  exchangeId: string;
  round: number;
  outcome: Extract<RoundOutcome, { kind: 'error' }>;
}

/** Whether a new exchange had room (and its row is written), or which budget was full. */
export type ExchangeRoom = 'room' | 'full' | 'full-for-principal';

/** What identifies a first leg's call, for a repeat to join the exchange of the first (exchange-joins-pg.ts). */
export interface CallIdentity {
  /** The call's method, target and arguments (`requestDigestOf`). */
  digest: string;
  /** The client's idempotency key (the SEP-3182 draft's `params.idempotencyKey`). */
  idempotencyKey?: string;
  /** Without a key: for how long after it started an identical call joins it while it runs (none: never). */
  reattachWindowMs?: number;
}

/** A new exchange's room, or the exchange of the same call (by key or identity) it joins; `sameCall`: with the same digest. */
export type JoinedOrRoom = ExchangeRoom | { joins: string; sameCall: boolean };

/**
 * The exchange store, one part per job: each part has a Postgres room of its own
 * (`exchange-<part>-pg.ts`), and `createExchangeStorePg` (exchange-store-pg.ts) puts them together.
 */
export type ExchangeStore = ExchangeRowStore &
  ExchangeJoinStore &
  RoundReadStore &
  RoundRecordStore &
  ExchangeEventStore;

/** A repeated call's first leg: the exchange of the call it repeats, or its own row (exchange-joins-pg.ts). */
export interface ExchangeJoinStore {
  /**
   * As createExchange, unless its caller has an exchange of the same call to join: the one with its
   * idempotency key, or a running identical call's that takes joiners (exchange-joins-pg.ts).
   */
  createOrJoinExchange(
    exchange: ExchangeInput,
    workflowId: string,
    identity: CallIdentity,
    maxRunning?: number,
    maxRunningOfPrincipal?: number,
    trace?: ExchangeTraceContext,
  ): Promise<JoinedOrRoom>;
}

/** An exchange's caller and call, as its row keeps them. */
export interface ExchangeCall {
  principal: string;
  method: string;
  target: string;
}

/** Exchange rows: opened under the running budgets, forgotten, counted, found idle (exchange-rows-pg.ts). */
export interface ExchangeRowStore {
  /**
   * Creates the exchange's row (status running) before its workflow starts; a repeat changes
   * nothing. With `maxRunning`, only while fewer exchanges than that run across the deployment, and
   * with `maxRunningOfPrincipal`, only while its principal runs fewer than that (both checked in
   * the same statement): `full` or `full-for-principal`, and nothing written, when they do.
   * `trace`: the trace context of the leg that starts it, kept for its later legs (traces on).
   */
  createExchange(
    exchange: ExchangeInput,
    workflowId: string,
    maxRunning?: number,
    maxRunningOfPrincipal?: number,
    trace?: ExchangeTraceContext,
  ): Promise<ExchangeRoom>;
  /** Who made an exchange's call and what it called: whom `await_answer` lets wait on it. */
  readCall(exchangeId: string): Promise<ExchangeCall | undefined>;
  /** The trace context its first leg was written with, if any (lib/tracing/exchange-trace.ts). */
  readTraceContext(exchangeId: string): Promise<ExchangeTraceContext | undefined>;
  /** Removes the row of an exchange whose workflow could not be started (unless a round was recorded after all). */
  forgetUnstarted(exchangeId: string): Promise<void>;
  /** Exchanges still running, across the deployment (the open-exchanges gauge reads it). */
  countRunning(): Promise<number>;
  /** Up to `limit` running exchanges nothing was recorded for since `idleMs` ago, oldest first. */
  idleRunning(idleMs: number, limit: number): Promise<string[]>;
}

/** Rounds as the API and the worker read them, and the starts of their handlers (exchange-round-reads-pg.ts). */
export interface RoundReadStore {
  /** The recorded outcome of a round, if any. */
  readRound(exchangeId: string, round: number): Promise<RoundRecord | undefined>;
  /** The recorded outcomes of a round and of the round after it (what an answer to its ask turns on), in one read. */
  readRoundAndNext(exchangeId: string, round: number): Promise<[RoundRecord | undefined, RoundRecord | undefined]>;
  /** The last recorded round of an exchange, if any. */
  lastRound(exchangeId: string): Promise<RoundRecord | undefined>;
  /**
   * Counts one more check of whether the workflow has a retried answer to the ask `round` recorded,
   * unless `max` were made already; whether this one may be made.
   */
  countRedeliveryCheck(exchangeId: string, round: number, max: number): Promise<boolean>;
  /** Counts one more retried attempt of a round starting its handler; returns the count so far. */
  countHandlerStart(exchangeId: string, round: number): Promise<number>;
  /**
   * A round's record if it has one; else counts one more start of its handler and returns the
   * starts so far (this one included). One round trip: what a round run as a local activity asks
   * first, since it cannot tell a retry by its attempt number.
   */
  startRound(exchangeId: string, round: number): Promise<{ recorded: RoundRecord } | { starts: number }>;
}

/** A round's record: first write wins, announced, its exchange moved on (exchange-round-record-pg.ts). */
export interface RoundRecordStore {
  /**
   * Records a round outcome and announces it on `OUTCOME_CHANNEL` (the record itself in the
   * payload when it fits: `decodeAnnouncedRound`), and moves its exchange's row (status, rounds,
   * asks), writing nothing else of it; creates the row when the round finds none.
   * If the round is already recorded, changes nothing and returns what stands.
   */
  recordRound(entry: NewRound): Promise<RoundRecord>;
  /** Records an ending for an existing exchange, like `recordRound` (first write wins). */
  recordEnding(entry: NewEnding): Promise<RoundRecord>;
}

/** A round's handler notifications (exchange-events-pg.ts). */
export interface ExchangeEventStore {
  /** Appends a handler notification to a round and announces it on `EVENT_CHANNEL`. */
  appendEvent(exchange: ExchangeInput, workflowId: string, round: number, event: ExchangeEvent): Promise<void>;
  /** A round's notifications after `afterId`, oldest first. */
  readEvents(exchangeId: string, round: number, afterId: number): Promise<StoredEvent[]>;
}
