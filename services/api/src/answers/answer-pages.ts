/**
 * The answer page's routes, mounted at `/answers` beside the sign-in's (sign-in/): the inbox of
 * the signed-in answerer (`GET /`), a question's page (`GET /q/:id`) and its form (`POST /q/:id`).
 * Who sees what at a question's URL is page/question-access.ts's: its addressees the question and
 * its form; its caller, where excluded, the call and why they cannot answer; anyone else signed in
 * only that it is not theirs (never what it asks); a missing id is "no such question"; signed out,
 * a question's page is only the way to sign in. A post is
 * refused without the session's CSRF token; what it holds becomes an answer through the one
 * answering every entry point shares (lib/exchange-client/question-answering.ts), with `via: 'page'`.
 * A question that requires a sign-in the session does not meet (`requireSignIn`: step-up) sends
 * its answerer through the issuer again, back to the question, when they open it, and when they
 * post to it (the post is refused, `step-up-required`, and recorded, as the rules would); the
 * development sign-in's step-up is its form again. Every response
 * carries the page's security headers (no script, no framing, no cache, no Referer), and every
 * page the sign-in's banner when it has one (the development sign-in says anyone can be anyone).
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { QuestionStore } from '../../../../lib/db/question-store';
import type { Logger } from '../../../../lib/log';
import { identityKeys } from '../../../../lib/questions/addressing';
import { meetsSignInRequirement } from '../../../../lib/questions/admission';
import { answerFromForm, type FormFields } from '../../../../lib/questions/form-answer';
import { ACTION_FIELD, CSRF_FIELD, SHOWN_FIELD } from '../../../../lib/questions/form-field-names';
import type { AnswererIdentity, QuestionView } from '../../../../lib/questions/question';
import { REFUSAL_STATUS } from './answer-api';
import { INBOX_PATH, questionPath } from './page/answer-paths';
import { html, type Html } from './page/html';
import { signInLacksGroups } from './page/groups-hint';
import { renderInbox } from './page/inbox';
import { renderPage } from './page/layout';
import { renderNotice, type Notice } from './page/notice';
import { questionAccess } from './page/question-access';
import { renderQuestion, type QuestionPage } from './page/question-page';
import type { QuestionAnswering } from '../../../../lib/exchange-client/question-answering';
import type { AnswerSignIn } from './sign-in/answer-sign-in';

/** The headers of every answer page, redirects included. */
export const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
} as const;

export interface AnswerPagesDeps {
  signIn: AnswerSignIn;
  questions: QuestionStore;
  answering: QuestionAnswering;
  maxBodyBytes: number;
  maxListed: number;
  log: Logger;
  now?: () => number;
}

const send = (res: Response, status: number, page: string) => res.status(status).type('html').send(page);

/** Where the sign-in starts, coming back to `path`. */
export const signInHref = (path: string) => `/answers/sign-in?return=${encodeURIComponent(path)}`;

/** A short page of the page's own words (a refused post, a body too large), under the sign-in's banner. */
const plainPage = (title: string, text: string, banner: Html | undefined) =>
  renderPage({ title, body: html`<p>${text}</p>`, banner });

/** The form as posted: every value a string, a repeated field a list (urlencoded, not extended). */
function postedFields(body: unknown): FormFields {
  const fields: FormFields = {};
  if (typeof body !== 'object' || body === null) return fields;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value === 'string') fields[name] = value;
    else if (Array.isArray(value)) fields[name] = value.filter((item): item is string => typeof item === 'string');
  }
  return fields;
}

export function answerPagesRouter(deps: AnswerPagesDeps): Router {
  const now = deps.now ?? Date.now;
  const { signIn, log } = deps;
  const { banner } = signIn;
  const router = express.Router();
  router.use((_req, res, next) => {
    res.set(PAGE_HEADERS);
    next();
  });
  router.use(signIn.router);

  const notice = (res: Response, status: number, shown: Notice) => send(res, status, renderNotice(shown, banner));
  const notFound = (res: Response) => notice(res, 404, { kind: 'notFound' });
  const questionPage = (res: Response, status: number, page: Omit<QuestionPage, 'now'>) =>
    send(res, status, renderQuestion({ ...page, now: now(), banner }));

  /**
   * The question `id` for `answerer` to answer, or, having answered the request with the page they
   * get instead (no such question; not addressed to them; the call of theirs they may not answer:
   * 403 for a post, which changes nothing), undefined.
   */
  async function answerable(
    req: Request,
    res: Response,
    id: string,
    answerer: AnswererIdentity,
    posted?: FormFields,
  ): Promise<QuestionView | undefined> {
    const question = await deps.questions.read(id);
    if (!question) return void notFound(res);
    const access = questionAccess(question, answerer, now());
    if (access === 'answerer') return question;
    if (posted !== undefined) await recordRefused(id, answerer, posted);
    if (access === 'not-addressed')
      return void notice(res, 403, { kind: 'notAddressed', noGroups: signInLacksGroups(question, answerer) });
    questionPage(res, req.method === 'POST' ? 403 : 200, {
      question,
      answerer,
      csrf: signIn.csrfTokenFor(req)!,
      excludedCaller: true,
    });
    return undefined;
  }

  /**
   * A post from someone who may not answer (a form they were never shown, or the excluded caller's
   * own): judged and recorded as every attempt is, so the audit holds it; the page says why.
   */
  async function recordRefused(id: string, answerer: AnswererIdentity, fields: FormFields): Promise<void> {
    const posted = fields[ACTION_FIELD];
    const action = posted === 'decline' || posted === 'cancel' ? posted : 'accept';
    const shown = fields[SHOWN_FIELD];
    await deps.answering.answer({
      questionId: id,
      by: answerer,
      via: 'page',
      response: { action },
      shownDigest: typeof shown === 'string' ? shown : '',
    });
  }

  /**
   * Whether `answerer` must sign in again before answering `question` (it waits, they have not
   * answered it, and their sign-in falls short of its `requireSignIn`): then, having sent them
   * through the issuer (step-up), true. A sign-in that cannot step up leaves the page as it is,
   * and a post is refused by the rules.
   */
  async function steppedUp(res: Response, question: QuestionView, answerer: AnswererIdentity): Promise<boolean> {
    const requirement = question.addressing.requireSignIn;
    if (requirement === undefined || question.status !== 'waiting') return false;
    if (question.answers.some((answer) => answer.by.id === answerer.id)) return false;
    if (meetsSignInRequirement(question.addressing, answerer, now()) || !signIn.stepUp) return false;
    log.info({ answerer: answerer.id, questionId: question.id }, 'answer page: the question needs a step-up');
    await signIn.stepUp(res, requirement, questionPath(question.id));
    return true;
  }

  /** One line for an answerer who already answered a question that still waits for others. */
  const answeredNotice = (question: QuestionView, answerer: AnswererIdentity) =>
    question.status === 'waiting' && question.answers.some((answer) => answer.by.id === answerer.id)
      ? 'Your answer was taken; the question waits for the other answers it needs.'
      : undefined;

  router.get('/', async (req, res) => {
    const answerer = signIn.answererOf(req);
    if (!answerer) return res.redirect(303, signInHref(INBOX_PATH));
    const { questions, moreWaiting } = await deps.questions.waitingFor(identityKeys(answerer), now(), deps.maxListed);
    const signOutCsrf = signIn.csrfTokenFor(req)!;
    send(res, 200, renderInbox({ answerer, questions, moreWaiting, signOutCsrf, now: now(), banner }));
  });

  router.get('/q/:id', async (req: Request<{ id: string }>, res) => {
    const answerer = signIn.answererOf(req);
    if (!answerer)
      return notice(res, 200, { kind: 'signInNeeded', signInHref: signInHref(questionPath(req.params.id)) });
    const question = await answerable(req, res, req.params.id, answerer);
    if (!question) return;
    if (await steppedUp(res, question, answerer)) return;
    const shown = answeredNotice(question, answerer);
    questionPage(res, 200, {
      question,
      answerer,
      csrf: signIn.csrfTokenFor(req)!,
      ...(shown ? { notice: shown } : {}),
    });
  });

  router.post(
    '/q/:id',
    express.urlencoded({ extended: false, limit: deps.maxBodyBytes }),
    async (req: Request<{ id: string }>, res) => {
      const { id } = req.params;
      const answerer = signIn.answererOf(req);
      if (!answerer) return notice(res, 403, { kind: 'signInNeeded', signInHref: signInHref(questionPath(id)) });
      const fields = postedFields(req.body);
      if (!signIn.checkCsrf(req, fields[CSRF_FIELD])) {
        log.warn({ answerer: answerer.id }, 'answer page post refused: cross-site or without the CSRF token');
        return send(res, 403, plainPage('Answer refused', 'This answer did not come from the answer page.', banner));
      }
      const question = await answerable(req, res, id, answerer, fields);
      if (!question) return;
      const csrf = signIn.csrfTokenFor(req)!;
      const form = answerFromForm(question.requestedSchema, fields);
      if ('problems' in form)
        return questionPage(res, 422, { question, answerer, csrf, values: fields, problems: form.problems });
      const shownDigest = typeof fields[SHOWN_FIELD] === 'string' ? fields[SHOWN_FIELD] : '';
      const reply = await deps.answering.answer({
        questionId: id,
        by: answerer,
        via: 'page',
        response: form.answer,
        shownDigest,
      });
      switch (reply.kind) {
        case 'not-found':
          return notFound(res);
        case 'invalid':
          return questionPage(res, 422, { question, answerer, csrf, values: fields, problems: reply.problems });
        case 'refused':
          // Recorded as refused; the person signs in as the question needs, then answers again.
          if (reply.refusal === 'step-up-required' && (await steppedUp(res, reply.question, answerer))) return;
          return questionPage(res, REFUSAL_STATUS[reply.refusal], {
            question: reply.question,
            answerer,
            csrf,
            notice: reply.message,
            ...(reply.refusal === 'stale' ? { values: fields } : {}),
          });
        case 'taken':
          return res.redirect(303, questionPath(id));
      }
    },
  );

  // A body too large or unreadable: said on a page, as the rest is.
  router.use((error: { status?: number; type?: string }, _req: Request, res: Response, next: NextFunction) => {
    if (error.type === 'entity.too.large')
      return send(res, 413, plainPage('Answer too large', `An answer is at most ${deps.maxBodyBytes} bytes.`, banner));
    if (error.status === 400)
      return send(res, 400, plainPage('Answer unreadable', 'The form could not be read.', banner));
    next(error);
  });
  return router;
}

/** `/answers` when the answer page is off (no sign-in configured): every page is 404, saying so. */
export function answerPagesOff(): Router {
  const router = express.Router();
  router.use((_req, res) => {
    res
      .status(404)
      .set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' })
      .type('text/plain')
      .send(
        'The answer page is off: set ANSWER_OIDC_ISSUER (and its ANSWER_* variables) to serve it, or, in local development with AUTH_MODE=off, ANSWER_DEV_SIGN_IN=true.\n',
      );
  });
  return router;
}
