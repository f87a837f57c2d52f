/**
 * The answer endpoint built from the configuration: the answering of questions (one for every
 * entry point), its re-signaller, and the router `/answers` mounts: the answer API at
 * `/answers/api` (its bearer gate is the app's, as /mcp's is).
 */
import express, { type Router } from 'express';
import type { Config } from '../../../../lib/config';
import type { QuestionStore } from '../../../../lib/db/question-store';
import type { Logger } from '../../../../lib/log';
import type { ExchangeGateway } from '../exchange-client/exchange-gateway';
import { answerApiRouter } from './answer-api';
import { startAnswerResignal } from './answer-resignal';
import { createQuestionAnswering } from './question-answering';

export const ANSWER_API_PATH = '/answers/api';

/** Where a question's page is: the same origin as the API, `/answers/q/<id>`. */
export const questionPagePath = (id: string): string => `/answers/q/${encodeURIComponent(id)}`;

export function answerEndpoint(
  config: Config,
  deps: { questions: QuestionStore; gateway: ExchangeGateway; log: Logger },
): { router: Router; stop(): void } {
  const log = deps.log.child({ component: 'answers' });
  const answering = createQuestionAnswering({
    questions: deps.questions,
    gateway: deps.gateway,
    log,
    maxRecordedRefusals: config.limits.maxRecordedRefusals,
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
      pageUrl: questionPagePath,
    }),
  );
  return { router, stop: resignal.stop };
}
