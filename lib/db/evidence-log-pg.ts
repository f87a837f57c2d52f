/**
 * The evidence log in Postgres (migrations/0025-create-evidence-log.sql): appending an entry inside
 * the transaction that claims or refuses an answer (question-store-pg.ts), so a decision and its
 * evidence commit together or not at all, or that signs a gateway decision the worker recorded
 * (gateway-decisions-pg.ts), and reading entries back for an export.
 *
 * An append locks the log's one head row (FOR UPDATE) as its last step before the claim commits:
 * appends are serialized, each entry takes the next seq and links to the hash of the one before, and
 * the lock is held for two statements and the commit. The question's row lock is always taken
 * first, the head's second, so claims never deadlock on it.
 */
import type { Pool, PoolClient } from 'pg';
import {
  evidenceFactsOf,
  evidencePayloadOf,
  type EvidenceAttempt,
  type EvidenceLinks,
  type EvidenceQuestion,
  type EvidenceVerdict,
} from '../evidence/evidence-entry';
import type { StoredEntry } from '../evidence/evidence-export';
import { entryHash, signEvidence, type SignedPayload } from '../evidence/entry-signing';
import { gatewayDecisionPayloadOf, type GatewayDecisionFacts } from '../evidence/gateway-decision-entry';
import type { EvidenceSigningKey } from '../evidence/signing-keys';

/** An entry as appended: its place in the log and its hash (the id a verifier finds it by). */
export interface AppendedEvidence {
  seq: number;
  hash: string;
}

export interface EvidenceLog {
  /** Appends the entry of one decision, in the caller's transaction (which holds the question's lock). */
  append(
    client: PoolClient,
    question: EvidenceQuestion,
    attempt: EvidenceAttempt,
    verdict: EvidenceVerdict,
  ): Promise<AppendedEvidence>;
  /**
   * Appends the entry of one gateway decision (gateway-decision-entry.ts), in the caller's
   * transaction (which holds the decision's row lock). One per exchange and round: a second is
   * refused by the log's unique index, and the transaction with it.
   */
  appendDecision(client: PoolClient, facts: GatewayDecisionFacts): Promise<AppendedEvidence>;
}

/** The log's head, locked, and the exchange's last entry, as an append reads them. */
interface HeadRow {
  seq: string;
  hash: string | null;
  now: Date;
  exchange_seq: number | null;
  exchange_hash: string | null;
}

interface EntryRow {
  seq: string;
  prev: string | null;
  exchange_seq: number;
  hash: string;
  jws: string;
}

const storedOf = (row: EntryRow): StoredEntry => ({
  seq: Number(row.seq),
  prev: row.prev,
  exchangeSeq: row.exchange_seq,
  hash: row.hash,
  jws: row.jws,
});

/** `keys`: EVIDENCE_SIGNING_KEYS, the first signs. */
export function createEvidenceLog(keys: ReadonlyArray<EvidenceSigningKey>): EvidenceLog {
  const first = keys[0];
  if (!first) throw new Error('the evidence log needs a signing key (EVIDENCE_SIGNING_KEYS)');
  const signer: EvidenceSigningKey = first;

  /** Signs `payloadOf(links)` at the head's next place and inserts it with `columns` (the kind's own). */
  async function insertAt(
    client: PoolClient,
    exchangeId: string,
    head: HeadRow,
    payloadOf: (links: EvidenceLinks) => SignedPayload,
    columns: { answerId: string | null; taken: boolean | null; decisionRound: number | null },
  ): Promise<AppendedEvidence> {
    const seq = Number(head.seq) + 1;
    const exchangeSeq = (head.exchange_seq ?? 0) + 1;
    const payload = payloadOf({
      seq,
      prev: head.hash,
      exchangeSeq,
      exchangePrev: head.exchange_hash,
      loggedAt: head.now.toISOString(),
    });
    const jws = await signEvidence(payload, signer);
    const hash = entryHash(jws);
    await client.query({
      name: 'evidence-append',
      text: `WITH entry AS (
          INSERT INTO evidence_entries (seq, prev, exchange_id, exchange_seq, exchange_prev, answer_id, taken, decision_round, logged_at, jws, hash)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING seq, hash)
        UPDATE evidence_head SET seq = entry.seq, hash = entry.hash FROM entry WHERE evidence_head.only_row`,
      values: [
        seq,
        head.hash,
        exchangeId,
        exchangeSeq,
        head.exchange_hash,
        columns.answerId,
        columns.taken,
        columns.decisionRound,
        head.now,
        jws,
        hash,
      ],
    });
    return { seq, hash };
  }

  return {
    async append(client, question, attempt, verdict) {
      // The head (locked), the exchange's last entry and the question's count of refusals left
      // unrecorded, in one statement; the time is the database's, read under the lock.
      const { rows } = await client.query<HeadRow & { unrecorded: number | null }>({
        name: 'evidence-head',
        text: `SELECT h.seq, h.hash, clock_timestamp() AS now, l.exchange_seq, l.hash AS exchange_hash,
            (SELECT refused_unrecorded FROM questions WHERE id = $2) AS unrecorded
          FROM evidence_head h
          LEFT JOIN LATERAL (SELECT exchange_seq, hash FROM evidence_entries WHERE exchange_id = $1
                             ORDER BY exchange_seq DESC LIMIT 1) l ON true
          WHERE h.only_row FOR UPDATE OF h`,
        values: [question.exchangeId, question.id],
      });
      const head = rows[0];
      if (!head) throw new Error('the evidence log has no head row (is migration 0025 applied?)');
      const facts = evidenceFactsOf(question, attempt, verdict, head.unrecorded ?? 0);
      return insertAt(client, question.exchangeId, head, (links) => evidencePayloadOf(facts, links), {
        answerId: attempt.answerId,
        taken: verdict.taken,
        decisionRound: null,
      });
    },

    async appendDecision(client, facts) {
      const { rows } = await client.query<HeadRow>({
        name: 'evidence-head-decision',
        text: `SELECT h.seq, h.hash, clock_timestamp() AS now, l.exchange_seq, l.hash AS exchange_hash
          FROM evidence_head h
          LEFT JOIN LATERAL (SELECT exchange_seq, hash FROM evidence_entries WHERE exchange_id = $1
                             ORDER BY exchange_seq DESC LIMIT 1) l ON true
          WHERE h.only_row FOR UPDATE OF h`,
        values: [facts.exchange],
      });
      const head = rows[0];
      if (!head) throw new Error('the evidence log has no head row (is migration 0025 applied?)');
      return insertAt(client, facts.exchange, head, (links) => gatewayDecisionPayloadOf(facts, links), {
        answerId: null,
        taken: null,
        decisionRound: facts.round,
      });
    },
  };
}

const PAGE = 500;
const COLUMNS = 'seq, prev, exchange_seq, hash, jws';

/** Reading the log for exports (the admin API's `GET /admin/evidence`). */
export function createEvidenceReader(pool: Pool) {
  /** The entries of `where` (seq > after), in seq order, a page at a time. */
  async function* pages(where: string, values: unknown[]): AsyncGenerator<StoredEntry[]> {
    let after = 0;
    for (;;) {
      const { rows } = await pool.query<EntryRow>(
        `SELECT ${COLUMNS} FROM evidence_entries WHERE ${where} AND seq > $${values.length + 1}
          ORDER BY seq LIMIT ${PAGE}`,
        [...values, after],
      );
      if (rows.length > 0) yield rows.map(storedOf);
      if (rows.length < PAGE) return;
      after = Number(rows.at(-1)!.seq);
    }
  }

  return {
    /** Every entry of one exchange so far, in order. */
    async exchange(exchangeId: string) {
      // Bounded by the last entry counted: one appended while the export is read is left to the next export.
      const { rows } = await pool.query<{ count: string; last: string | null }>(
        'SELECT count(*) AS count, max(seq) AS last FROM evidence_entries WHERE exchange_id = $1',
        [exchangeId],
      );
      const { count, last } = rows[0]!;
      return { count: Number(count), pages: pages('exchange_id = $1 AND seq <= $2', [exchangeId, last ?? 0]) };
    },

    /**
     * The entries logged from `from` (inclusive) to `to` (exclusive), as one unbroken run of seqs:
     * from the first logged at or after `from` to the last logged before `to` (an entry inside
     * whose time a clock step put outside is kept, so the range has no gap). Empty, `after` is the
     * head as it stood at `from`'s last entry.
     */
    async range(from: Date, to: Date) {
      const { rows } = await pool.query<{ low: string | null; high: string | null; count: string }>(
        `WITH bounds AS (
            SELECT (SELECT min(seq) FROM evidence_entries WHERE logged_at >= $1 AND logged_at < $2) AS low,
                   (SELECT max(seq) FROM evidence_entries WHERE logged_at >= $1 AND logged_at < $2) AS high)
          SELECT low, high, (SELECT count(*) FROM evidence_entries, bounds b WHERE seq BETWEEN b.low AND b.high) AS count
          FROM bounds`,
        [from, to],
      );
      const { low, high, count } = rows[0]!;
      if (low === null || high === null) return { count: 0, pages: (async function* () {})() };
      return { count: Number(count), pages: pages('seq BETWEEN $1 AND $2', [low, high]) };
    },
  };
}

export type EvidenceReader = ReturnType<typeof createEvidenceReader>;
