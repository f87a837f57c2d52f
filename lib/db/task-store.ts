/**
 * The task read model in Postgres (migration 0018): a task's row beside its exchange's, and the
 * keys of its current ask that tasks/update answered. The API writes a task's row before it
 * answers with the task, so any replica's tasks/get finds it at once; everything else about the
 * task (its status, its rounds, its result) is the exchange's own record.
 */
import type { RoundRecord } from '../exchange/types';
import type { ExchangeStatus } from '../exchange/types';
import type { ExchangeTraceContext } from '../tracing/exchange-trace';

export interface NewTask {
  taskId: string;
  exchangeId: string;
  principal: string;
  ttlMs: number;
  pollIntervalMs: number;
}

export interface TaskRecord extends NewTask {
  createdAt: Date;
  /** `createdAt + ttlMs`: from then on the task reads as unknown, and the retention sweep deletes it. */
  expiresAt: Date;
}

/** A task as tasks/get reads it: its row, its exchange's status and last round, and what was answered of that round. */
export interface TaskSnapshot extends TaskRecord {
  exchangeStatus: ExchangeStatus;
  /** The trace context of the exchange's first leg (traces on): task requests link to it. */
  traceContext?: ExchangeTraceContext;
  lastRound?: RoundRecord;
  /** Keys of the last round's ask that tasks/update answered, and the serialized size of those answers. */
  answeredKeys: string[];
  answeredBytes: number;
  /** The size of each answered key's answer (0 for those that came over MRTR). */
  answeredKeyBytes: Record<string, number>;
  /** The latest of its creation, its last round and its last answer. */
  lastUpdatedAt: Date;
}

/** A key of an ask that was answered, and the size of its answer as JSON (0 when it came over MRTR, sized there). */
export interface AnsweredKey {
  key: string;
  bytes: number;
}

export interface TaskStore {
  /**
   * Writes the task's row for its exchange (created now, expiring `ttlMs` later). An exchange has
   * one task: a second write for it changes nothing and returns the task that stands.
   */
  create(task: NewTask): Promise<TaskRecord>;
  /** The task, unless unknown or past its TTL. (Whose it is, the caller checks.) */
  read(taskId: string): Promise<TaskSnapshot | undefined>;
  /** The task of an exchange, unless it has none or it is past its TTL. */
  readOfExchange(exchangeId: string): Promise<TaskRecord | undefined>;
  /** Records that these keys of round `round`'s ask were answered (with their answers' sizes); returns those not answered before. */
  recordAnswered(exchangeId: string, round: number, answers: ReadonlyArray<AnsweredKey>): Promise<string[]>;
  /**
   * Claims these keys of round `round`'s ask for one `tasks/update`, before it signals them: in one
   * transaction that holds the task's row, so two updates of one task at once neither both take a
   * key nor both fit the budget. Either every key not taken before is claimed, within `maxBytes`
   * for the round's answers in all (`claimed`: those, to signal), or none is (`overBudget`: the
   * size they would have made).
   */
  claimAnswers(
    exchangeId: string,
    round: number,
    answers: ReadonlyArray<AnsweredKey>,
    maxBytes: number,
  ): Promise<{ claimed: string[] } | { overBudget: number }>;
}
