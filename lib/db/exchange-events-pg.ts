/**
 * A round's handler notifications in Postgres (`exchange_events`): appended in order and announced
 * on EVENT_CHANNEL, projected into a legacy call's stream in the same transaction
 * (legacy-projection.ts), and read back after the last id a listener sent. One part of the exchange
 * store (exchange-store-pg.ts).
 */
import type { Pool, PoolClient } from 'pg';
import type { ExchangeEvent } from '../exchange/types';
import { createExchange, elseCreatingExchangeRow } from './exchange-rows-pg';
import { EVENT_CHANNEL, type ExchangeEventStore } from './exchange-store';
import { projectEvent } from './legacy-projection';
import { inTransaction } from './pool';

/** `legacyStreamMaxEvents`: the cap of the legacy streams the events are projected into. */
export function createExchangeEventsPg(pool: Pool, legacyStreamMaxEvents: number): ExchangeEventStore {
  return {
    async appendEvent(exchange, workflowId, round, event) {
      const append = async (client: PoolClient) => {
        const { rows } = await client.query<{ id: string }>({
          text: 'INSERT INTO exchange_events (exchange_id, round, kind, payload) VALUES ($1, $2, $3, $4) RETURNING id',
          values: [exchange.exchangeId, round, event.kind, JSON.stringify(event)],
        });
        if (exchange.era === 'legacy')
          await projectEvent(client, exchange.exchangeId, Number(rows[0]!.id), event, legacyStreamMaxEvents);
        await client.query('SELECT pg_notify($1, $2)', [EVENT_CHANNEL, `${exchange.exchangeId}:${round}`]);
      };
      await elseCreatingExchangeRow(
        () => inTransaction(pool, append),
        () =>
          inTransaction(pool, async (client) => {
            await createExchange(client, exchange, workflowId);
            await append(client);
          }),
      );
    },

    async readEvents(exchangeId, round, afterId) {
      const { rows } = await pool.query<{ id: string; payload: ExchangeEvent }>({
        text: 'SELECT id, payload FROM exchange_events WHERE exchange_id = $1 AND round = $2 AND id > $3 ORDER BY id',
        values: [exchangeId, round, afterId],
      });
      return rows.map((row) => ({ id: Number(row.id), event: row.payload }));
    },
  };
}
