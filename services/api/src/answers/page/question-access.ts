/**
 * Which page a signed-in person gets at a question's URL, decided here on the page's side from the
 * question and the identity (the answering's `mayView` says who may read and answer it):
 *
 * - `answerer`: the question is addressed to them (or they answered it): the whole question, and
 *   its form while it waits;
 * - `caller-excluded`: they made the call and the question must be answered by someone else
 *   (`excludeCaller`): the call they made and why they cannot answer it, with no form, even when a
 *   group or scope of theirs is addressed;
 * - `not-addressed`: anyone else: that the question exists and is not theirs, and nothing of what it
 *   asks (no call, caller, message or argument).
 *
 * A missing id stays "no such question" (answer-pages.ts). Pure.
 */
import { mayView } from '../../../../../lib/exchange-client/question-answering';
import { isCaller } from '../../../../../lib/questions/addressing';
import type { AnswererIdentity, QuestionView } from '../../../../../lib/questions/question';

export type QuestionAccess = 'answerer' | 'caller-excluded' | 'not-addressed';

export function questionAccess(question: QuestionView, identity: AnswererIdentity, now: number): QuestionAccess {
  if (question.addressing.excludeCaller && isCaller(identity, question.caller)) return 'caller-excluded';
  return mayView(question, identity, now) ? 'answerer' : 'not-addressed';
}
