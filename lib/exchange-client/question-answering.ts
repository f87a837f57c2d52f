/**
 * Answering a question, the same way from every entry point (the answer page, the answer API): the
 * answer is checked against the question's schema, judged and claimed under the question's row
 * lock (first admitted answer wins; every refusal is recorded with its reason, an attempt by
 * someone the question is not addressed to included, who is told neither what it asks nor who
 * answered), then signalled to
 * the exchange's workflow, which judges it again as the authority. The claim is durable before the
 * signal: an API that dies between them leaves an unsignalled answer that any replica's
 * re-signaller delivers (answer-resignal.ts), and the workflow takes it once whatever the repeats.
 */
import type { QuestionStore } from '../db/question-store';
import type { Logger } from '../log';
import type { AnswerProblem } from '../questions/answer-problem';
import { checkAnswerContent } from '../questions/answer-content';
import { judgeAnswer, refusalMessage, type Judgement, type Refusal } from '../questions/answer-judgement';
import { addresseesAt, answererNames } from '../questions/addressing';
import type { AnswerChannel, AnswererIdentity, ElicitAnswer, QuestionView } from '../questions/question';
import type { ExchangeGateway } from './exchange-gateway';
import type { ExchangeTraceContext } from '../tracing/exchange-trace';
import { withAnswerSpan } from './answer-span';

/** Refusals about who answers, which one who may not see the question is told; any other is `not-addressed`. */
const WHO_REFUSALS = new Set<Refusal>(['not-addressed', 'client-token', 'identity-unmatched', 'caller-excluded']);

/**
 * A client's token (software holding a token for someone) speaks only on its own call's channel:
 * at the page or the answer API it is refused (`client-token`) whatever the question, and is shown
 * nothing of it, not even through a refusal or a content check.
 */
const speaksOutOfTurn = (input: Pick<AnswerAttemptInput, 'by' | 'via'>): boolean =>
  input.by.kind === 'client' && input.via !== 'client';

export interface AnswerAttemptInput {
  questionId: string;
  by: AnswererIdentity;
  via: AnswerChannel;
  response: ElicitAnswer;
  shownDigest: string;
}

export type AnswerReply =
  | { kind: 'not-found' }
  | { kind: 'invalid'; question: QuestionView; problems: AnswerProblem[] }
  | {
      kind: 'refused';
      question: QuestionView;
      refusal: Refusal;
      message: string;
      /** Whether the answerer may see the question (`mayView`): a refusal shows it only then. */
      viewable: boolean;
    }
  | { kind: 'taken'; question: QuestionView; decided: boolean };

export interface QuestionAnsweringDeps {
  questions: QuestionStore;
  gateway: Pick<ExchangeGateway, 'sendQuestionAnswer'>;
  log: Logger;
  /** Refused attempts recorded per question; beyond it they are only counted. */
  maxRecordedRefusals: number;
  /** The exchange's trace context, so an answer's span links to the exchange it answers. */
  traceOf?: (exchangeId: string) => Promise<ExchangeTraceContext | undefined>;
  now?: () => number;
}

/**
 * Whether `identity` may see a question: it is addressed to them now (or was answered by them).
 * A question's URL grants nothing; nobody else learns what it asks, or that it exists.
 */
export function mayView(question: QuestionView, identity: AnswererIdentity, now: number): boolean {
  if (question.answers.some((answer) => answer.by.id === identity.id)) return true;
  const until = Math.min(now, question.deadlineAt);
  return addresseesAt(question.addressing, question.askedAt, until).some((a) =>
    answererNames(a, identity, question.caller),
  );
}

export function createQuestionAnswering(deps: QuestionAnsweringDeps) {
  const now = deps.now ?? Date.now;

  async function answer(input: AnswerAttemptInput): Promise<AnswerReply> {
    const question = await deps.questions.read(input.questionId);
    if (!question) return { kind: 'not-found' };
    return withAnswerSpan(
      { questionId: question.id, answerer: input.by.id, via: input.via },
      () => deps.traceOf?.(question.exchangeId) ?? Promise.resolve(undefined),
      () => judgeAndClaim(input, question, mayView(question, input.by, now()) && !speaksOutOfTurn(input)),
    );
  }

  /**
   * An attempt judged and claimed. One the answerer may not view is refused whatever the judge
   * finds (its content was never checked against the schema, which it must not learn), and
   * recorded all the same.
   */
  async function judgeAndClaim(
    input: AnswerAttemptInput,
    question: QuestionView,
    viewable: boolean,
  ): Promise<AnswerReply> {
    if (viewable) {
      const problems = checkAnswerContent(question.requestedSchema, input.response);
      if (problems.length > 0) return { kind: 'invalid', question, problems };
    }
    const claimed = await deps.questions.claim(
      { ...input, at: now() },
      (current, taken): Judgement => {
        if (speaksOutOfTurn(input)) return { taken: false, refusal: 'client-token' };
        const judged = judgeAnswer(current, taken, {
          identity: input.by,
          shownDigest: input.shownDigest,
          response: input.response,
          now: now(),
        });
        return viewable || (!judged.taken && WHO_REFUSALS.has(judged.refusal))
          ? judged
          : { taken: false, refusal: 'not-addressed' };
      },
      deps.maxRecordedRefusals,
    );
    const log = deps.log.child({ exchangeId: question.exchangeId, round: question.round, key: question.key });
    if (claimed.kind === 'not-found') return { kind: 'not-found' };
    if (claimed.kind === 'refused') {
      log.info({ answerer: input.by.id, via: input.via, refusal: claimed.refusal }, 'question answer refused');
      return {
        kind: 'refused',
        question: claimed.question,
        refusal: claimed.refusal,
        message: viewable
          ? refusalMessage(claimed.refusal, claimed.question)
          : refusalMessage(claimed.refusal, { answers: [], deadlineAt: question.deadlineAt }),
        viewable,
      };
    }
    log.info({ answerer: input.by.id, via: input.via, decided: claimed.decided }, 'question answer taken');
    // Claimed, so durable: a failed signal is retried by the re-signaller, never lost.
    await deliver(question.exchangeId, claimed.answer).catch((error: unknown) =>
      log.warn({ err: error }, 'question answer claimed; its signal failed and will be sent again'),
    );
    return { kind: 'taken', question: claimed.question, decided: claimed.decided };
  }

  /** Signals a claimed answer and marks it signalled (also when its workflow is gone: there is no one to tell). */
  async function deliver(exchangeId: string, claimed: Parameters<ExchangeGateway['sendQuestionAnswer']>[1]) {
    await deps.gateway.sendQuestionAnswer(exchangeId, claimed);
    await deps.questions.markSignalled(claimed.answerId);
  }

  /**
   * A caller's client declining or cancelling a question it was sent in URL mode: the caller's
   * answer (the leg or session that carries it is bound to the exchange's caller), with no content
   * to be shown first, so it is judged against what the question shows now.
   */
  async function answerForCaller(questionId: string, action: 'decline' | 'cancel'): Promise<AnswerReply> {
    const question = await deps.questions.read(questionId);
    if (!question) return { kind: 'not-found' };
    const { caller } = question;
    const by: AnswererIdentity = {
      id: caller.personId ?? caller.id,
      // The caller's client, not the person present: it may only decline or cancel (`admission`),
      // and a question's requireSignIn does not hold it, since that approves nothing.
      kind: 'client',
      ...(caller.issuer !== undefined ? { issuer: caller.issuer } : {}),
      subject: caller.subject,
      scopes: [],
      groups: [],
      ...(caller.name !== undefined ? { name: caller.name } : {}),
      ...(caller.email !== undefined ? { email: caller.email } : {}),
    };
    return answer({ questionId, by, via: 'client', response: { action }, shownDigest: question.shownDigest });
  }

  return { answer, deliver, answerForCaller };
}

export type QuestionAnswering = ReturnType<typeof createQuestionAnswering>;
