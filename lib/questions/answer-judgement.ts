/**
 * Whether an attempt to answer a question is taken, judged under the question's row lock before
 * anything is signalled (the workflow judges again, by the same rules, as the authority): first
 * valid answer wins; an answer after the deadline, against a stale digest, from someone the
 * question is not addressed to (the caller, where excluded), or to a decided question is refused
 * with a reason that is recorded and shown.
 */
import { describeRequirement } from './step-up';
import { admission, decisionOf, type AdmissionRefusal, type SlottedAnswer } from './admission';
import { humanTime } from './human-time';
import type { AnswererIdentity, ElicitAnswer, QuestionView } from './question';

export type Refusal = AdmissionRefusal | 'late' | 'stale' | 'expired' | 'cancelled';

export type Judgement = { taken: true; slot: number; decided: boolean } | { taken: false; refusal: Refusal };

type Judged = Pick<QuestionView, 'status' | 'deadlineAt' | 'askedAt' | 'addressing' | 'shownDigest' | 'caller'>;

export function judgeAnswer(
  question: Judged,
  taken: SlottedAnswer[],
  attempt: { identity: AnswererIdentity; shownDigest: string; response: ElicitAnswer; now: number },
): Judgement {
  if (question.status === 'expired' || question.status === 'cancelled')
    return { taken: false, refusal: question.status };
  if (question.status === 'answered') return { taken: false, refusal: 'closed' };
  if (attempt.now > question.deadlineAt) return { taken: false, refusal: 'late' };
  const admitted = admission(question.addressing, attempt.identity, {
    caller: question.caller,
    askedAt: question.askedAt,
    at: attempt.now,
    taken,
    action: attempt.response.action,
  });
  if (!admitted.admitted) return { taken: false, refusal: admitted.reason };
  // Who answers is judged before what they saw: someone not admitted learns nothing of the question.
  if (attempt.shownDigest !== question.shownDigest) return { taken: false, refusal: 'stale' };
  const after = [...taken, { slot: admitted.slot, by: attempt.identity, response: attempt.response }];
  return { taken: true, slot: admitted.slot, decided: decisionOf(question.addressing, after) !== undefined };
}

/**
 * What an answerer is told of a refusal (the page and the API say the same). `addressing` says
 * what sign-in a `step-up-required` question needs.
 */
export function refusalMessage(
  refusal: Refusal,
  question: Pick<QuestionView, 'answers' | 'deadlineAt'> & Partial<Pick<QuestionView, 'addressing'>>,
): string {
  switch (refusal) {
    case 'not-addressed':
      return 'This question is not addressed to you.';
    case 'client-token':
      return 'A question addressed to someone is answered by that person, signed in at the answer page, or by a service with a token of its own for the answer API: not with an MCP client’s token, nor a person’s token held by software acting for them.';
    case 'identity-unmatched':
      return 'Whether you made this call cannot be told: the caller’s token does not carry the claim this deployment knows people by (ANSWER_IDENTITY_CLAIM), so this question cannot be answered.';
    case 'caller-excluded':
      return 'You made this call, and this question must be answered by someone else.';
    case 'already-answered':
      return 'You have answered this question already.';
    case 'closed': {
      const first = question.answers[0];
      const by = first ? ` by ${first.by.name ?? first.by.subject} at ${humanTime(first.at)}` : '';
      return `This question was already answered${by}.`;
    }
    case 'late':
    case 'expired':
      return `This question expired at ${humanTime(question.deadlineAt)}.`;
    case 'stale':
      return 'This question changed since it was shown to you: read it again before you answer.';
    case 'cancelled':
      return 'This question was withdrawn: its call ended.';
    case 'step-up-required': {
      const requirement = question.addressing?.requireSignIn;
      const needs = requirement ? describeRequirement(requirement) : 'a stronger or more recent sign-in';
      return `This question must be answered by a person with ${needs}: sign in again on the answer page to answer it (a service at the answer API cannot).`;
    }
  }
}
