/**
 * The URL-mode elicitations a legacy call's stream carries for the questions addressed to its
 * caller (lib/questions/caller-url.ts), in the projection's transaction (legacy-projection.ts):
 * each is a server-to-client request kept open like any other, whose `elicitationId` is the
 * question's id; once the question is answered on its page (its round's successor is being
 * recorded), the client is told it is complete, and a request it never replied to is settled, so
 * neither a late reply nor the ending's withdrawals touch it again.
 */
import type { PoolClient } from 'pg';

/**
 * The elicitation ids of round `round`'s URL-mode requests whose questions were answered; those
 * still open are settled ('withdrawn': nothing is owed on them any more).
 */
export async function completedUrlElicitations(
  client: PoolClient,
  exchangeId: string,
  round: number,
): Promise<string[]> {
  const { rows } = await client.query<{ elicitation_id: string }>({
    text: `WITH answered AS (
             SELECT r.id, r.message->'params'->>'elicitationId' AS elicitation_id
               FROM legacy_open_requests r
               JOIN questions q ON q.exchange_id = r.exchange_id AND q.round = r.round AND q.key = r.key
              WHERE r.exchange_id = $1 AND r.round = $2 AND r.message->'params'->>'mode' = 'url'
                AND q.status = 'answered'
           ), settled AS (
             UPDATE legacy_open_requests SET status = 'withdrawn', settled_at = now()
              WHERE id IN (SELECT id FROM answered) AND status = 'open'
           )
           SELECT elicitation_id FROM answered ORDER BY elicitation_id`,
    values: [exchangeId, round],
  });
  return rows.map((row) => row.elicitation_id);
}
