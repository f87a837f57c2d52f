/**
 * The answer endpoint built from the configuration: the answering of questions (one for every
 * entry point), its re-signaller, and the router `/answers` mounts: the answer API at
 * `/answers/api` (its bearer gate is the app's, as /mcp's is), and, when a sign-in is configured
 * (ANSWER_OIDC_ISSUER, or ANSWER_DEV_SIGN_IN in development), the answer page with it
 * (answer-pages.ts); without one, the page's paths are 404.
 */
import express, { type Router } from 'express';
import type { Config } from '../../../../lib/config';
import type { QuestionStore } from '../../../../lib/db/question-store';
import type { Logger } from '../../../../lib/log';
import type { ExchangeTraceContext } from '../../../../lib/tracing/exchange-trace';
import type { ExchangeGateway } from '../../../../lib/exchange-client/exchange-gateway';
import { questionPath, questionPageUrl as questionPageUrlOf } from '../../../../lib/questions/question-path';
import type { CallerPages } from '../exchange-legs/leg-types';
import { answerApiRouter } from './answer-api';
import { answerPagesOff, answerPagesRouter } from './answer-pages';
import { startAnswerResignal } from './answer-resignal';
import { createQuestionAnswering } from '../../../../lib/exchange-client/question-answering';
import { createAnswerSignIn } from './sign-in/answer-sign-in';
import { createDevAnswerSignIn } from './sign-in/dev-answer-sign-in';

export const ANSWER_API_PATH = '/answers/api';

/**
 * A question's page as the API's JSON and the webhooks name it: absolute under ANSWER_PUBLIC_URL
 * when the page is on, else the path on the API's own origin.
 */
export function questionPageUrl(config: Pick<Config, 'answers'>): (id: string) => string {
  const origin = config.answers.publicOrigin;
  return origin === undefined ? questionPath : (id) => questionPageUrlOf(origin, id);
}

export function answerEndpoint(
  config: Config,
  deps: {
    questions: QuestionStore;
    gateway: ExchangeGateway;
    log: Logger;
    traceOf?: (exchangeId: string) => Promise<ExchangeTraceContext | undefined>;
  },
): { router: Router; stop(): void; callerPages?: CallerPages } {
  const log = deps.log.child({ component: 'answers' });
  const answering = createQuestionAnswering({
    questions: deps.questions,
    gateway: deps.gateway,
    log,
    maxRecordedRefusals: config.limits.maxRecordedRefusals,
    ...(deps.traceOf ? { traceOf: deps.traceOf } : {}),
  });
  const resignal = startAnswerResignal(
    { questions: deps.questions, answering, log },
    { afterMs: config.exchange.questionResignalAfterMs },
  );
  const router = express.Router();
  router.use(
    '/api',
    answerApiRouter({
      questions: deps.questions,
      answering,
      maxBodyBytes: config.limits.maxAnswerBodyBytes,
      maxListed: config.limits.maxListedQuestions,
      pageUrl: questionPageUrl(config),
    }),
  );
  const signInConfig = config.answers.signIn;
  const { devSignIn } = config.answers;
  // lib/config requires ANSWER_SESSION_KEYS of a process that serves the page.
  const { sessions } = config.answers;
  if ((signInConfig ?? devSignIn) !== undefined && sessions === undefined)
    throw new Error('the answer page is on without ANSWER_SESSION_KEYS');
  const signIn =
    sessions &&
    (signInConfig
      ? createAnswerSignIn(signInConfig, { ...sessions, log })
      : devSignIn && createDevAnswerSignIn(devSignIn, { ...sessions, log }));
  if (signIn === undefined) router.use(answerPagesOff());
  else
    router.use(
      answerPagesRouter({
        signIn,
        questions: deps.questions,
        answering,
        maxBodyBytes: config.limits.maxAnswerBodyBytes,
        maxListed: config.limits.maxListedQuestions,
        log,
      }),
    );
  // With the page on (either sign-in), a question addressed to the caller can be sent to its client in URL mode.
  const page = signInConfig ?? devSignIn;
  const callerPages: CallerPages | undefined = page && {
    origin: page.publicOrigin,
    pageUrl: questionPageUrl(config),
    async refuseAsCaller(questionId, action) {
      const reply = await answering.answerForCaller(questionId, action);
      log.info(
        { questionId, action, reply: reply.kind },
        "the caller's client replied to a question's URL elicitation",
      );
    },
  };
  return { router, stop: resignal.stop, ...(callerPages ? { callerPages } : {}) };
}
