/**
 * An approver answering questions addressed to it through the answer API (`/answers/api`), as a
 * service (a bot) does with a token of its own: its inbox, the question on one order in it, and an
 * answer that names the digest of what it was shown.
 */
import { waitFor } from './wait-for';

/** The answer API's questions, beside an API process's `/mcp`. */
export const answersOf = (url: string) => url.replace(/\/mcp$/, '/answers/api/questions');

/** A question as the answer API lists it (the fields an approver reads). */
export type Listed = { id: string; exchangeId: string; round: number; shownDigest: string; message: string };

/** The questions waiting in the approver's inbox at `url`. */
export async function inbox(url: string, headers: Record<string, string>): Promise<Listed[]> {
  const response = await fetch(answersOf(url), { headers });
  if (!response.ok) throw new Error(`the inbox answered HTTP ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { questions: Listed[] }).questions;
}

/** The question on `order` as the approver's inbox at `url` lists it (refund_order names its order). */
export function listedQuestion(
  url: string | (() => string),
  headers: Record<string, string> | (() => Promise<Record<string, string>>),
  order: string,
  timeoutMs?: number,
): Promise<Listed> {
  return waitFor(
    `the question on ${order} in the approver's inbox`,
    async () => {
      const listed = await inbox(
        typeof url === 'string' ? url : url(),
        typeof headers === 'function' ? await headers() : headers,
      );
      return listed.find((q) => q.message.includes(`order ${order} `));
    },
    timeoutMs === undefined ? {} : { timeoutMs },
  );
}

/** Answers `question` at the answer API of `url`; the reply's HTTP status (200 once the answer is taken). */
export async function postAnswer(
  url: string,
  headers: Record<string, string>,
  question: Pick<Listed, 'id' | 'shownDigest'>,
  answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> },
): Promise<number> {
  const response = await fetch(`${answersOf(url)}/${encodeURIComponent(question.id)}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ...answer, shownDigest: question.shownDigest }),
  });
  await response.body?.cancel();
  return response.status;
}
