/**
 * Answers to an exchange's questions in the in-process harness, as someone the question is
 * addressed to (`step.answerAs`): each answer passes the checks the answer page and API make
 * (the schema, the addressing, the caller excluded, the deadline, a decided question), then the
 * workflow's own (workflows/exchange-state.ts `acceptQuestion`), so a handler's tests meet the
 * refusals its approvers would.
 */
import { randomUUID } from 'node:crypto';
import type { RoundRecord } from '../lib/exchange/types';
import type { ExchangeInput } from '../lib/exchange/types';
import { checkAnswerContent } from '../lib/questions/answer-content';
import { judgeAnswer, refusalMessage } from '../lib/questions/answer-judgement';
import { questionsOfAsk } from '../lib/questions/new-questions';
import type { AnswererIdentity, ElicitAnswer, QuestionView } from '../lib/questions/question';
import { INVALID_PARAMS } from '../lib/protocol/json-rpc-codes';
import { acceptQuestion, type ExchangeState } from '../lib/exchange-rules/exchange-state';
import type { Answerer, JsonRpcError } from './drive-types';
import { principalId } from '../lib/exchange/principal';

/**
 * A test's answerer as the service would verify them: their principal key, scopes and groups, and
 * their sign-in (`auth_time` `signIn.ageS` before `now`, `acr`, `amr`) when the test gives one;
 * `'caller'` is the exchange's own caller (`exchange`), signed in elsewhere, as a question
 * addressed to `answerer.caller()` is answered.
 */
export function answererIdentity(
  answerer: Answerer | 'caller',
  exchange: ExchangeInput,
  now: number = Date.now(),
): AnswererIdentity {
  if (answerer === 'caller') {
    const details = exchange.principalDetails;
    return {
      id: exchange.callerPersonId ?? exchange.principal,
      kind: 'person',
      ...(details?.issuer !== undefined ? { issuer: details.issuer } : {}),
      subject: details?.subject ?? exchange.principal,
      scopes: details?.scopes ?? [],
      groups: [],
    };
  }
  return {
    id: principalId(answerer.issuer, answerer.subject, undefined, answerer.service === true),
    ...(answerer.service === true
      ? { kind: 'service' as const, clientId: answerer.subject }
      : { kind: 'person' as const }),
    issuer: answerer.issuer,
    subject: answerer.subject,
    scopes: answerer.scopes ?? [],
    groups: answerer.groups ?? [],
    ...(answerer.name !== undefined ? { name: answerer.name } : {}),
    ...(answerer.signIn !== undefined ? signInOf(answerer.signIn, now) : {}),
  };
}

/** A test's sign-in as the identity carries it (what a session's ID token said). */
const signInOf = ({ acr, amr, ageS }: NonNullable<Answerer['signIn']>, now: number) => ({
  authTime: Math.floor(now / 1000) - (ageS ?? 0),
  ...(acr !== undefined ? { acr } : {}),
  ...(amr !== undefined ? { amr: [...amr] } : {}),
});

/** Takes `responses` (elicitation results by key) from `by`, or says why one of them was refused (nothing is taken then). */
export function answerQuestions(
  state: ExchangeState,
  exchange: ExchangeInput,
  ask: RoundRecord,
  by: AnswererIdentity,
  responses: Record<string, ElicitAnswer>,
  now: number,
): JsonRpcError | undefined {
  if (ask.outcome.kind !== 'ask') return refused('There is no ask to answer');
  const views = questionsOfAsk(
    exchange,
    ask.round,
    ask.outcome.inputRequests,
    ask.recordedAt.getTime(),
    (ask.deadlineAt ?? ask.recordedAt).getTime(),
  );
  const checked: Array<{ key: string; response: ElicitAnswer }> = [];
  for (const [key, response] of Object.entries(responses)) {
    const view = views.find((q) => q.key === key);
    if (!view) return refused(`${key} is not a question addressed to someone else`);
    const problems = checkAnswerContent(view.requestedSchema, response);
    if (problems.length > 0) return refused('The answer does not fit the question', { problems });
    const taken = (state.questions?.taken[key] ?? []).map(({ slot, by: who, response: r }) => ({
      slot,
      by: who,
      response: r,
    }));
    const current: QuestionView = {
      ...view,
      status:
        state.status === 'expired'
          ? 'expired'
          : state.awaiting === ask.round && state.status === 'running'
            ? 'waiting'
            : 'answered',
      answers: (state.questions?.taken[key] ?? []).map(({ answer }) => ({
        by: answer.by,
        at: answer.sentAt,
        via: answer.via,
        action: answer.response.action,
      })),
    };
    const judged = judgeAnswer(current, taken, { identity: by, shownDigest: view.shownDigest, response, now });
    if (!judged.taken) return refused(refusalMessage(judged.refusal, current), { refusal: judged.refusal });
    checked.push({ key, response });
  }
  for (const { key, response } of checked)
    acceptQuestion(state, { round: ask.round, key, answerId: randomUUID(), response, by, via: 'harness', sentAt: now });
  return undefined;
}

const refused = (message: string, data?: Record<string, unknown>): JsonRpcError => ({
  code: INVALID_PARAMS,
  message,
  ...(data ? { data } : {}),
});
