/**
 * The answer API (`/answers/api`), for services (Slack, Teams, email, ChatOps bots) answering as
 * themselves: list the questions addressed to the service, read one, answer one. Behind its own
 * bearer gate (answer-api-gate.ts: a resource of its own, so an MCP client's token is a client's
 * and answers nothing), by the same rules as the answer page
 * (lib/exchange-client/question-answering.ts): the answer names the digest of what it was shown,
 * every attempt on a question that exists is judged and recorded, and a refusal says why.
 */
import express, { type Request, type Response, type Router } from 'express';
import type { QuestionStore } from '../../../../lib/db/question-store';
import { identityKeys } from '../../../../lib/questions/addressing';
import { refusalMessage, type Refusal } from '../../../../lib/questions/answer-judgement';
import type { ElicitAnswer, QuestionView } from '../../../../lib/questions/question';
import { mayView, type QuestionAnswering } from '../../../../lib/exchange-client/question-answering';
import { apiAnswererOf } from './answer-api-gate';

/** The HTTP status of each refusal: a conflict with what stands, gone once the question is over, forbidden for who asks. */
export const REFUSAL_STATUS: Record<Refusal, number> = {
  'not-addressed': 403,
  'caller-excluded': 403,
  'client-token': 403,
  'identity-unmatched': 403,
  'step-up-required': 403,
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
  const answerer = apiAnswererOf;

  // A client's token (an MCP client's, or a person's held by software) reads nothing here; its
  // answers are judged and recorded below, so an attempt to answer leaves its trace.
  router.get('/questions{/:id}', (_req, res, next) => {
    if (answerer(res).kind !== 'client') return next();
    problem(
      res,
      REFUSAL_STATUS['client-token'],
      'client-token',
      refusalMessage('client-token', { answers: [], deadlineAt: 0 }),
    );
  });

  router.get('/questions', async (_req, res) => {
    const who = answerer(res);
    const { questions, moreWaiting } = await deps.questions.waitingFor(identityKeys(who), now(), deps.maxListed);
    // `moreWaiting`: questions beyond MAX_LISTED_QUESTIONS, listed as these are answered.
    res.json({ questions: questions.map((q) => questionJson(q, deps.pageUrl)), moreWaiting });
  });

  router.get('/questions/:id', async (req: Request<{ id: string }>, res) => {
    const question = await deps.questions.read(req.params.id);
    if (!question) return problem(res, 404, 'not-found', 'No such question.');
    if (!mayView(question, answerer(res), now()))
      return problem(res, REFUSAL_STATUS['not-addressed'], 'not-addressed', refusalMessage('not-addressed', question));
    res.json(questionJson(question, deps.pageUrl));
  });

  router.post(
    '/questions/:id',
    (req, res, next) =>
      req.is('application/json')
        ? next()
        : problem(res, 415, 'unsupported-media-type', 'An answer is sent as Content-Type: application/json.'),
    express.json({ limit: deps.maxBodyBytes, type: () => true }),
    async (req: Request<{ id: string }>, res) => {
      const body = answerBody(req.body);
      if (typeof body === 'string') return problem(res, 400, 'invalid', body);
      const reply = await deps.answering.answer({ questionId: req.params.id, by: answerer(res), via: 'api', ...body });
      switch (reply.kind) {
        case 'not-found':
          return problem(res, 404, 'not-found', 'No such question.');
        case 'invalid':
          return problem(res, 422, 'invalid', 'The answer does not fit the question.', { problems: reply.problems });
        case 'refused':
          return problem(
            res,
            REFUSAL_STATUS[reply.refusal],
            reply.refusal,
            reply.message,
            reply.viewable ? { question: questionJson(reply.question, deps.pageUrl) } : {},
          );
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
