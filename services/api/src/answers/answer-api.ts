/**
 * The answer API (`/answers/api`), for bots (Slack, Teams, email, ChatOps) and any service that
 * answers questions for a principal: list the questions addressed to the caller of the request,
 * read one, answer one. Behind the same bearer gate as `/mcp` (the request's caller is the
 * answerer, as its token names it), and by the same rules as the answer page
 * (lib/exchange-client/question-answering.ts): the answer names the digest of what it was shown,
 * a question that is not addressed to the caller is not found, and a refusal says why.
 */
import express, { type Request, type Response, type Router } from 'express';
import type { QuestionStore } from '../../../../lib/db/question-store';
import { personIdOf, type Principal } from '../../../../lib/exchange/principal';
import { identityKeys } from '../../../../lib/questions/addressing';
import type { Refusal } from '../../../../lib/questions/answer-judgement';
import type { AnswererIdentity, ElicitAnswer, QuestionView } from '../../../../lib/questions/question';
import { callerGroupsOf, callerOf } from '../auth/caller';
import { mayView, type QuestionAnswering } from '../../../../lib/exchange-client/question-answering';

/**
 * An API caller as an answerer: the person its token names, keyed as a sign-in of theirs is
 * (`personIdOf`), so one person is one answerer through the page and every client; its scopes,
 * and the groups its token's groups claim names (ANSWER_GROUPS_CLAIM).
 */
export const answererOfPrincipal = (principal: Principal, groups: string[] = []): AnswererIdentity => ({
  id: personIdOf(principal),
  ...(principal.issuer !== undefined ? { issuer: principal.issuer } : {}),
  subject: principal.subject,
  scopes: principal.scopes,
  groups,
});

/** The HTTP status of each refusal: a conflict with what stands, gone once the question is over, forbidden for who asks. */
export const REFUSAL_STATUS: Record<Refusal, number> = {
  'not-addressed': 403,
  'caller-excluded': 403,
  'already-answered': 409,
  closed: 409,
  stale: 409,
  late: 410,
  expired: 410,
  cancelled: 410,
};

/** A question as the API shows it, with where its page is. */
export function questionJson(question: QuestionView, pageUrl: (id: string) => string) {
  return { ...question, url: pageUrl(question.id) };
}

const problem = (res: Response, status: number, code: string, message: string, extra: object = {}) =>
  res.status(status).json({ error: { code, message, ...extra } });

/** Reads an answer body: `{ action, content?, shownDigest }`, or says what is wrong with it. */
function answerBody(body: unknown): { response: ElicitAnswer; shownDigest: string } | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object';
  const { action, content, shownDigest, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) return `${unknown}: not a field of an answer (action, content, shownDigest)`;
  if (typeof shownDigest !== 'string') return "shownDigest: the question's shownDigest, as it was read, is required";
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return 'action: accept, decline or cancel';
  return {
    response: { action, ...(content !== undefined ? { content: content as ElicitAnswer['content'] } : {}) },
    shownDigest,
  };
}

export function answerApiRouter(deps: {
  questions: QuestionStore;
  answering: QuestionAnswering;
  maxBodyBytes: number;
  maxListed: number;
  pageUrl: (id: string) => string;
  now?: () => number;
}): Router {
  const now = deps.now ?? Date.now;
  const router = express.Router();
  const answerer = (res: Response) => answererOfPrincipal(callerOf(res), callerGroupsOf(res));

  router.get('/questions', async (_req, res) => {
    const who = answerer(res);
    const waiting = await deps.questions.waitingFor(identityKeys(who), now(), deps.maxListed);
    res.json({ questions: waiting.map((q) => questionJson(q, deps.pageUrl)) });
  });

  router.get('/questions/:id', async (req: Request<{ id: string }>, res) => {
    const question = await deps.questions.read(req.params.id);
    if (!question || !mayView(question, answerer(res), now()))
      return problem(res, 404, 'not-found', 'No such question is addressed to you.');
    res.json(questionJson(question, deps.pageUrl));
  });

  router.post(
    '/questions/:id',
    express.json({ limit: deps.maxBodyBytes, type: () => true }),
    async (req: Request<{ id: string }>, res) => {
      const body = answerBody(req.body);
      if (typeof body === 'string') return problem(res, 400, 'invalid', body);
      const reply = await deps.answering.answer({ questionId: req.params.id, by: answerer(res), via: 'api', ...body });
      switch (reply.kind) {
        case 'not-found':
          return problem(res, 404, 'not-found', 'No such question is addressed to you.');
        case 'invalid':
          return problem(res, 422, 'invalid', 'The answer does not fit the question.', { problems: reply.problems });
        case 'refused':
          return problem(res, REFUSAL_STATUS[reply.refusal], reply.refusal, reply.message, {
            question: questionJson(reply.question, deps.pageUrl),
          });
        case 'taken':
          return res.json({
            taken: true,
            decided: reply.decided,
            question: questionJson(reply.question, deps.pageUrl),
          });
      }
    },
  );

  // A body too large or not JSON: said as this API says everything else.
  router.use((error: { status?: number; type?: string }, _req: Request, res: Response, next: express.NextFunction) => {
    if (error.type === 'entity.too.large')
      return problem(res, 413, 'too-large', `An answer is at most ${deps.maxBodyBytes} bytes.`);
    if (error.status === 400) return problem(res, 400, 'invalid', 'The body is not JSON.');
    next(error);
  });
  return router;
}
