/**
 * The person who answers the `approve` tool's questions: a member of `approvers`, signed in on
 * the answer page with its development sign-in (the service runs as `durable-mcp dev` does), who
 * accepts a question from its page like a browser would. Questions are found by their message in
 * Postgres, so a test knows when a call's question is waiting and what became of it.
 */
import type { Pool } from 'pg';
import { SAME_ORIGIN, hidden, signedInByDevSignIn } from '../answers/page-answerer';
import { until } from '../support/until';

export interface Approver {
  /** The question's id once `approve` with this order asked it. */
  questionOn(order: string): Promise<string>;
  /** The status of the question on `order` (waiting, answered, cancelled, expired). */
  statusOf(order: string): Promise<string | undefined>;
  /** Accepts the question on `order` from its page: whether it was taken (a question no longer waiting is not). */
  accept(order: string): Promise<boolean>;
}

export async function signInApprover(origin: string, pool: Pool): Promise<Approver> {
  const browser = await signedInByDevSignIn(origin, { subject: 'rita', name: 'Rita', groups: 'approvers' });

  const message = (order: string) => `Approve ${order}?`;
  const row = async (order: string) =>
    (
      await pool.query<{ id: string; status: string }>('SELECT id, status FROM questions WHERE message = $1', [
        message(order),
      ])
    ).rows[0];
  const questionOn = async (order: string) => (await until(`the question on ${order}`, () => row(order))).id;
  return {
    questionOn,
    statusOf: async (order) => (await row(order))?.status,
    async accept(order) {
      const id = encodeURIComponent(await questionOn(order));
      const page = await (await browser.request(`${origin}/answers/q/${id}`)).text();
      const answered = await browser.post(
        `${origin}/answers/q/${id}`,
        { csrf: hidden(page, 'csrf') ?? '', shown: hidden(page, 'shown') ?? '', action: 'accept' },
        SAME_ORIGIN,
      );
      return answered.status === 303;
    },
  };
}
