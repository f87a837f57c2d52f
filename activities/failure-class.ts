/**
 * Tells a failure that will happen again on every retry from infrastructure trouble worth waiting
 * out. Postgres refusing a value (a NUL, a lone surrogate, a value over a size limit, a constraint)
 * and a value that cannot be serialized fail the same way forever: retrying them would re-run the
 * handler every few seconds without end. Everything else (a connection refused or dropped, a
 * server shutting down, a serialization conflict) is retried without limit, as before.
 */
import { ApplicationFailure } from '@temporalio/common';

export const UNRECORDABLE = 'UnrecordableOutcome';

/**
 * SQLSTATEs that depend only on the data: class 22 (data exception), class 54 (program limit), and
 * the constraints a value breaks on its own (not null, check). A foreign-key or unique violation
 * depends on what else is in the table at that moment, so it is retried.
 */
const DETERMINISTIC_SQLSTATE_CLASSES = new Set(['22', '54']);
const DETERMINISTIC_SQLSTATES = new Set(['23502', '23514']);

/** Why `error` will recur on retry, in words safe to show a client; undefined when it may not. */
export function deterministicReason(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (
    typeof code === 'string' &&
    /^[0-9A-Z]{5}$/.test(code) &&
    (DETERMINISTIC_SQLSTATE_CLASSES.has(code.slice(0, 2)) || DETERMINISTIC_SQLSTATES.has(code))
  ) {
    if (code === '22P05' || code === '22021') return 'it holds a character Postgres cannot store';
    if (code.startsWith('54')) return 'it exceeds a size limit of the database';
    return `the database refused it (SQLSTATE ${code})`;
  }
  // JSON.stringify of a BigInt, a cycle, or a structure too deep for the stack.
  if (error instanceof TypeError || error instanceof RangeError) return 'it cannot be serialized as JSON';
  return undefined;
}

/** Rethrows `error` as non-retryable when it is deterministic, so the workflow ends the exchange. */
export function classifyFailure(error: unknown): never {
  const reason = deterministicReason(error);
  if (reason)
    throw ApplicationFailure.create({ message: reason, type: UNRECORDABLE, nonRetryable: true, cause: error as Error });
  throw error;
}
