/**
 * The gateway's policy decisions in Postgres (migrations/0029-record-gateway-decisions.sql), in two
 * halves, because the key that signs evidence is the API's alone (lib/config/process-role.ts: the
 * worker runs handler code, which could read it):
 *
 * - the worker's round **records** a decision's facts, once per exchange and round (the primary
 *   key; a repeat is a no-op and gets the first back), and notifies DECISION_CHANNEL;
 * - the API **signs** every decision not yet signed into the evidence log (evidence-log-pg.ts),
 *   woken by that notification and by its own sweep, one decision per transaction under the
 *   decision's row lock: the entry and the decision's `signed_seq` commit together, and a decision
 *   that already has its entry is only marked, so no decision is signed twice.
 */
import type { Pool, PoolClient } from 'pg';
import type { GatewayDecisionFacts } from '../evidence/gateway-decision-entry';
import type { DecisionRecord } from '../gateway/decision-record';
import type { EvidenceLog } from './evidence-log-pg';

/** Notified (payload `pending`) when a decision is recorded that the API is to sign. */
export const DECISION_CHANNEL = 'gateway_decision';
export const DECISION_PENDING = 'pending';

export function createDecisionRecordPg(pool: Pool): DecisionRecord {
  async function read(exchangeId: string, round: number) {
    const { rows } = await pool.query<{ facts: GatewayDecisionFacts }>({
      name: 'gateway-decision-read',
      text: 'SELECT facts FROM gateway_decisions WHERE exchange_id = $1 AND round = $2',
      values: [exchangeId, round],
    });
    return rows[0]?.facts;
  }
  return {
    read,
    async record(facts) {
      // Notified with the insert, in its statement: nothing to sign is announced for a repeat.
      const { rows } = await pool.query<{ facts: GatewayDecisionFacts }>({
        name: 'gateway-decision-record',
        text: `WITH inserted AS (
            INSERT INTO gateway_decisions (exchange_id, round, facts) VALUES ($1, $2, $3)
              ON CONFLICT (exchange_id, round) DO NOTHING RETURNING facts)
          SELECT facts, pg_notify($4, $5) FROM inserted`,
        values: [facts.exchange, facts.round, JSON.stringify(facts), DECISION_CHANNEL, DECISION_PENDING],
      });
      if (rows[0]) return rows[0].facts;
      // Another attempt of the round recorded first (its row is committed: the insert waited for it).
      const first = await read(facts.exchange, facts.round);
      if (!first) throw new Error(`the gateway decision of ${facts.exchange} round ${facts.round} vanished`);
      return first;
    },
  };
}

export interface DecisionSigner {
  /**
   * Signs every decision not yet signed (only `exchangeId`'s, when given), oldest first; returns
   * how many it signed. Without `exchangeId` a decision another replica is signing is skipped; with
   * it, waited for, so an export of the exchange that follows holds every decision recorded before.
   */
  signPending(exchangeId?: string): Promise<number>;
}

interface PendingRow {
  exchange_id: string;
  round: number;
  facts: GatewayDecisionFacts;
}

export function createDecisionSignerPg(pool: Pool, log: EvidenceLog): DecisionSigner {
  /** Signs one pending decision in its own transaction; false when none was left. */
  async function signOne(client: PoolClient, exchangeId: string | undefined): Promise<boolean> {
    await client.query('BEGIN');
    try {
      const { rows } = await client.query<PendingRow>(
        exchangeId === undefined
          ? `SELECT exchange_id, round, facts FROM gateway_decisions WHERE signed_seq IS NULL
              ORDER BY recorded_at LIMIT 1 FOR UPDATE SKIP LOCKED`
          : `SELECT exchange_id, round, facts FROM gateway_decisions WHERE signed_seq IS NULL AND exchange_id = $1
              ORDER BY recorded_at LIMIT 1 FOR UPDATE`,
        exchangeId === undefined ? [] : [exchangeId],
      );
      const row = rows[0];
      if (!row) {
        await client.query('COMMIT');
        return false;
      }
      // Its key is the row's: the facts name the same exchange and round, and the log's unique
      // index holds the entry to them.
      const facts = { ...row.facts, exchange: row.exchange_id, round: row.round };
      const { rows: signed } = await client.query<{ seq: string }>(
        'SELECT seq FROM evidence_entries WHERE exchange_id = $1 AND decision_round = $2',
        [row.exchange_id, row.round],
      );
      const seq = signed[0] ? Number(signed[0].seq) : (await log.appendDecision(client, facts)).seq;
      await client.query('UPDATE gateway_decisions SET signed_seq = $3 WHERE exchange_id = $1 AND round = $2', [
        row.exchange_id,
        row.round,
        seq,
      ]);
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  return {
    async signPending(exchangeId) {
      const client = await pool.connect();
      let count = 0;
      try {
        while (await signOne(client, exchangeId)) count += 1;
        return count;
      } finally {
        client.release();
      }
    },
  };
}
