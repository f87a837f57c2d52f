/**
 * The exchange read model in Postgres: one row per exchange, one per round outcome.
 * The worker writes (first write wins, then NOTIFY); the API reads.
 */
import type { ExchangeEvent, ExchangeInput, RoundOutcome } from '../exchange/types';

export const OUTCOME_CHANNEL = 'exchange_outcome';
export const EVENT_CHANNEL = 'exchange_event';

export interface StoredEvent {
  id: number;
  event: ExchangeEvent;
}

export interface RoundRecord {
  exchangeId: string;
  round: number;
  outcome: RoundOutcome;
  answersDigest?: string;
  recordedAt: Date;
  /** An ask's deadline for its answers. */
  deadlineAt?: Date;
  /** Set by `recordRound` and `recordEnding` when this call wrote the row (absent when it stood already). */
  recordedNow?: true;
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

export interface ExchangeStore {
  /** Creates the exchange's row (status running) before its workflow starts; a repeat changes nothing. */
  createExchange(exchange: ExchangeInput, workflowId: string): Promise<void>;
  /** Removes the row of an exchange whose workflow could not be started (unless a round was recorded after all). */
  forgetUnstarted(exchangeId: string): Promise<void>;
  /** The recorded outcome of a round, if any. */
  readRound(exchangeId: string, round: number): Promise<RoundRecord | undefined>;
  /** The last recorded round of an exchange, if any. */
  lastRound(exchangeId: string): Promise<RoundRecord | undefined>;
  /** Exchanges still running, across the deployment (the capacity check reads it). */
  countRunning(): Promise<number>;
  /** The same, and those of one principal among them, in one query (the per-principal budget reads it). */
  countRunningFor(principal: string): Promise<{ all: number; principal: number }>;
  /** Up to `limit` running exchanges nothing was recorded for since `idleMs` ago, oldest first. */
  idleRunning(idleMs: number, limit: number): Promise<string[]>;
  /**
   * Records a round outcome and announces it on `OUTCOME_CHANNEL`, creating the exchange row on
   * its first round. If the round is already recorded, changes nothing and returns what stands.
   */
  recordRound(entry: NewRound): Promise<RoundRecord>;
  /** Counts one more retried attempt of a round starting its handler; returns the count so far. */
  countHandlerStart(exchangeId: string, round: number): Promise<number>;
  /**
   * A round's record if it has one; else counts one more start of its handler and returns the
   * starts so far (this one included). One round trip: what a round run as a local activity asks
   * first, since it cannot tell a retry by its attempt number.
   */
  startRound(exchangeId: string, round: number): Promise<{ recorded: RoundRecord } | { starts: number }>;
  /** Records an ending for an existing exchange, like `recordRound` (first write wins). */
  recordEnding(entry: NewEnding): Promise<RoundRecord>;
  /** Appends a handler notification to a round and announces it on `EVENT_CHANNEL`. */
  appendEvent(exchange: ExchangeInput, workflowId: string, round: number, event: ExchangeEvent): Promise<void>;
  /** A round's notifications after `afterId`, oldest first. */
  readEvents(exchangeId: string, round: number, afterId: number): Promise<StoredEvent[]>;
}
