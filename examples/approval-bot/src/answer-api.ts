/**
 * The service's answer API, as the bot's own principal: read a question addressed to the bot (for
 * its `shownDigest`, the digest of what an answerer is shown), then answer it naming that digest.
 * The bot answers only what it read: a question changed meanwhile is refused as `stale`.
 */
import type { TokenSource } from './bot-token';

/** What came of an answer: taken (by whom the service recorded), or refused with the service's reason. */
export type Outcome =
  { taken: true; decided: boolean; by: string } | { taken: false; status: number; code: string; message: string };

interface QuestionJson {
  id: string;
  shownDigest: string;
  requestedSchema?: { properties?: Record<string, { type?: unknown }> };
  answers?: Array<{ by: { subject: string; name?: string } }>;
}
interface ErrorJson {
  error?: { code?: string; message?: string; problems?: Array<{ path?: string; message?: string }> };
}

/** The content of an approval: the note, in the question's `note` field when its schema has one. */
function approvalContent(question: QuestionJson, note: string | undefined): Record<string, unknown> {
  const field = question.requestedSchema?.properties?.note;
  return note !== undefined && field?.type === 'string' ? { note } : {};
}

export function answerApi(options: { url: string; tokens: TokenSource; timeoutMs: number }) {
  async function call(path: string, init: { method: 'GET' | 'POST'; body?: unknown }): Promise<Response> {
    const send = async () =>
      fetch(`${options.url}${path}`, {
        method: init.method,
        headers: {
          authorization: `Bearer ${await options.tokens.get()}`,
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    const response = await send();
    if (response.status !== 401) return response;
    // Revoked or expired early: once more with a new token.
    options.tokens.forget();
    return send();
  }

  const refused = async (response: Response): Promise<Outcome> => {
    const body = (await response.json().catch(() => ({}))) as ErrorJson;
    const problems = (body.error?.problems ?? []).map((p) => `${p.path ?? ''}: ${p.message ?? ''}`).join('; ');
    return {
      taken: false,
      status: response.status,
      code: body.error?.code ?? 'error',
      message: `${body.error?.message ?? `The answer API answered ${response.status}.`}${problems ? ` (${problems})` : ''}`,
    };
  };

  return {
    async answer(questionId: string, action: 'accept' | 'decline', note?: string): Promise<Outcome> {
      const path = `/questions/${encodeURIComponent(questionId)}`;
      const read = await call(path, { method: 'GET' });
      if (!read.ok) return refused(read);
      const question = (await read.json()) as QuestionJson;
      const answered = await call(path, {
        method: 'POST',
        body: {
          action,
          ...(action === 'accept' ? { content: approvalContent(question, note) } : {}),
          shownDigest: question.shownDigest,
        },
      });
      if (!answered.ok) return refused(answered);
      const reply = (await answered.json()) as { decided?: boolean; question?: QuestionJson };
      const by = reply.question?.answers?.at(-1)?.by;
      return { taken: true, decided: reply.decided === true, by: by?.name ?? by?.subject ?? 'the bot' };
    },
  };
}
