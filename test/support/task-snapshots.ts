/**
 * Task snapshots as the task store reads them, for the unit tests of what each wire says of a
 * task: one running task, created at `created` and last changed at `later`, with or without a round.
 */
import type { TaskSnapshot } from '../../lib/db/task-store';
import type { RoundOutcome } from '../../lib/exchange/types';

export const created = new Date('2026-12-01T10:00:00.000Z');
export const later = new Date('2026-12-01T10:00:05.000Z');

export const baseSnapshot: TaskSnapshot = {
  taskId: 't1',
  exchangeId: 'x1',
  principal: 'anonymous',
  ttlMs: 60_000,
  pollIntervalMs: 500,
  createdAt: created,
  expiresAt: new Date(created.getTime() + 60_000),
  exchangeStatus: 'running',
  answeredKeys: [],
  answeredBytes: 0,
  answeredKeyBytes: {},
  lastUpdatedAt: later,
};

/** The task with `outcome` recorded as its first round. */
export const withRound = (outcome: RoundOutcome, extra: Partial<TaskSnapshot> = {}): TaskSnapshot => ({
  ...baseSnapshot,
  lastRound: { exchangeId: 'x1', round: 1, outcome, recordedAt: later },
  ...extra,
});

/** An ask of two keys, `a` and `b`. */
export const askOfTwo: Extract<RoundOutcome, { kind: 'ask' }> = {
  kind: 'ask',
  inputRequests: { a: { method: 'elicitation/create' }, b: { method: 'elicitation/create' } },
};
