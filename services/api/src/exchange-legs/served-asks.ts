/**
 * The asks this API process handed its clients, kept until their answers come or their deadline
 * nears, so the leg that answers one can signal at once instead of reading the ask back from
 * Postgres first: about 1 ms of a person's answer leg on two cores (bench/README.md).
 *
 * What makes a kept ask safe to act on: a round's record never changes once written (first write
 * wins), so a kept ask says what Postgres says. What it cannot say is whether the round after it
 * is recorded already: the leg that uses one signals without knowing, and its wait for that round
 * begins with a read, so answers that were taken already (a retry that went to another replica
 * first) cost one signal the workflow ignores (it is the authority on repeats) and still get their
 * round's outcome, or its refusal when other answers took the round. Each entry is taken once: the
 * same requestState sent again reads first, as every leg did before this cache.
 *
 * Kept: asks of the caller only (one addressed to someone else is answered elsewhere), with a
 * deadline; taken only while the deadline is more than `DEADLINE_MARGIN_MS` away, so a leg that
 * uses one is never judged late on what it kept (a late answer is judged on Postgres's records).
 * Bounded by SERVED_ASKS_MAX_BYTES (0 keeps none): past it the oldest entries go first.
 */
import type { RoundRecord } from '../../../../lib/exchange/types';
import { isAddressedAsk } from '../../../../lib/questions/addressing';

/** How far from its deadline a kept ask must still be when it is taken. */
export const DEADLINE_MARGIN_MS = 1_000;
/**
 * What an entry costs in V8's heap, as counted against the budget: its outcome parsed takes about
 * twice its JSON, and the rest (the record's other fields and dates, its key, the map's slot) about
 * 640 bytes. Measured: 10,000 asks of one short question took 1,128 bytes each, counted at 1,088.
 */
const PARSED_PER_JSON_BYTE = 2;
const ENTRY_OVERHEAD_BYTES = 640;

export interface ServedAsks {
  /** Keeps `record` if it is an ask of the caller with a deadline, and fits the budget. */
  keep(record: RoundRecord): void;
  /** The kept ask of `round`, removed, if its deadline is more than the margin after `now`. */
  take(exchangeId: string, round: number, now: number): RoundRecord | undefined;
  /** The bytes the kept entries are counted at (about what they take in the heap). */
  readonly bytes: number;
}

export function createServedAsks(maxBytes: number): ServedAsks {
  // Insertion order is age order: the first key is the oldest entry.
  const entries = new Map<string, { record: RoundRecord; bytes: number }>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    keep(record) {
      const { outcome, deadlineAt } = record;
      if (maxBytes === 0 || outcome.kind !== 'ask' || !deadlineAt || isAddressedAsk(outcome.inputRequests)) return;
      const size = PARSED_PER_JSON_BYTE * Buffer.byteLength(JSON.stringify(outcome)) + ENTRY_OVERHEAD_BYTES;
      if (size > maxBytes) return;
      const key = `${record.exchangeId}:${record.round}`;
      drop(key);
      entries.set(key, { record, bytes: size });
      bytes += size;
      for (const oldest of entries.keys()) {
        if (bytes <= maxBytes) break;
        drop(oldest);
      }
    },
    take(exchangeId, round, now) {
      const key = `${exchangeId}:${round}`;
      const record = entries.get(key)?.record;
      drop(key);
      if (!record?.deadlineAt || record.deadlineAt.getTime() - now <= DEADLINE_MARGIN_MS) return undefined;
      return record;
    },
    get bytes() {
      return bytes;
    },
  };
}
