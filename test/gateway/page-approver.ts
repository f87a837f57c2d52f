/**
 * Rita, a member of `approvers`, signed in at the answer page of a service running as
 * `durable-mcp dev` does (its development sign-in), and the questions a gateway policy asked about
 * an upstream tool, found in Postgres once they wait.
 */
import type { Pool } from 'pg';
import { Browser, locationOf } from '../answers/browser';
import { hidden, SAME_ORIGIN } from '../answers/page-answerer';
import { until } from '../support/until';

export async function signInApprover(origin: string): Promise<Browser> {
  const browser = new Browser();
  const inbox = await browser.request(`${origin}/answers`);
  const form = await (await browser.request(locationOf(inbox, `${origin}/answers`))).text();
  const signedIn = await browser.post(
    `${origin}/answers/sign-in`,
    { csrf: hidden(form, 'csrf') ?? '', return: '/answers', subject: 'rita', name: 'Rita', groups: 'approvers' },
    SAME_ORIGIN,
  );
  if (signedIn.status !== 303) throw new Error(`the development sign-in answered HTTP ${signedIn.status}`);
  return browser;
}

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
