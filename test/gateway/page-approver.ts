/**
 * Rita, a member of `approvers`, signed in at the answer page of a service running as
 * `durable-mcp dev` does (its development sign-in), and the questions a gateway policy asked about
 * an upstream tool, found in Postgres once they wait.
 */
import type { Pool } from 'pg';
import { signedInByDevSignIn } from '../answers/page-answerer';
import { until } from '../support/until';

export const signInApprover = (origin: string) =>
  signedInByDevSignIn(origin, { subject: 'rita', name: 'Rita', groups: 'approvers' });

/** The question a call of `target` asked, once it waits (the first one still waiting). */
export const waitingQuestionOn = (pool: Pool, target: string) =>
  until(`a question on ${target}`, async () => {
    const { rows } = await pool.query<{ id: string; message: string }>(
      `SELECT q.id, q.message FROM questions q JOIN exchanges e ON e.id = q.exchange_id
        WHERE e.target = $1 AND q.status = 'waiting' ORDER BY q.asked_at LIMIT 1`,
      [target],
    );
    return rows[0];
  });
