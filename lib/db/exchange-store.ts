/**
 * The exchange read model in Postgres: one row per exchange, one per round outcome.
 * The worker writes (first write wins, then NOTIFY); the API reads.
 */
import type { ExchangeEvent, ExchangeInput, ExchangeStatus, RoundOutcome } from '../exchange/types';

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
}

export interface NewRound {
  exchange: ExchangeInput;
  workflowId: string;
  round: number;
  answers?: Record<string, unknown>;
  answersDigest?: string;
  outcome: RoundOutcome;
  status: ExchangeStatus;
  durationMs?: number;
}

export interface ExchangeStore {
  /** The recorded outcome of a round, if any. */
  readRound(exchangeId: string, round: number): Promise<RoundRecord | undefined>;
  /**
   * Records a round outcome and announces it on `OUTCOME_CHANNEL`, creating the exchange row on
   * its first round. If the round is already recorded, changes nothing and returns what stands.
   */
  recordRound(entry: NewRound): Promise<RoundRecord>;
  /** Appends a handler notification to a round and announces it on `EVENT_CHANNEL`. */
  appendEvent(exchange: ExchangeInput, workflowId: string, round: number, event: ExchangeEvent): Promise<void>;
  /** A round's notifications after `afterId`, oldest first. */
  readEvents(exchangeId: string, round: number, afterId: number): Promise<StoredEvent[]>;
}
