/**
 * The workflow's bookkeeping of an addressed ask's questions, as plain functions beside
 * exchange-state.ts: which answers each question took, by the rules of lib/questions (who may
 * answer, when an answer decides), of which the workflow is the authority. A decided question
 * becomes its key's answer, by the same path a legacy client's one-key answer takes, so the round's
 * answers are complete (and the next round runs) once every question is decided.
 *
 * Like any answer, a question's can reach the workflow before, in its view, the round has asked
 * (a local round's ask is recorded, and answerable, before its workflow task completes): it is
 * held and applied once the ask is folded in.
 */
import type { AnsweredBy } from '@durable-mcp/handlers';
import { admission, decisionOf, type Admission, type SlottedAnswer } from '../questions/admission';
import type { Addressing, QuestionAnswer, QuestionCaller } from '../questions/question';
import { isLate } from './round-deadline';
import type { RoundSummary } from '../exchange/types';

interface TakenAnswer extends SlottedAnswer {
  answerId: string;
  answer: QuestionAnswer;
}

/** The questions of the awaited ask, and what each took. */
export interface QuestionsState {
  round: number;
  askedAt: number;
  addressing: Record<string, Addressing>;
  taken: Record<string, TakenAnswer[]>;
}

type Refusal = Extract<Admission, { admitted: false }>['reason'];

/** `decided`: it decided its question (the key is answered). `taken`: an `eachOf` still waits for others. */
export type QuestionVerdict = 'decided' | 'taken' | 'held' | 'duplicate' | 'late' | 'unexpected' | Refusal;

/** What question answers need of the exchange's state (exchange-state.ts's `ExchangeState`). */
export interface WithQuestions {
  round: number;
  awaiting?: number;
  deadlineAt?: number;
  status: string;
  questions?: QuestionsState;
  questionsAhead?: QuestionAnswer[];
}

/** The questions an ask's summary brings, or none. */
export function questionsOf(summary: RoundSummary): QuestionsState | undefined {
  if (summary.kind !== 'ask' || !summary.questions) return undefined;
  return { round: summary.round, askedAt: summary.ask?.askedAt ?? 0, addressing: summary.questions, taken: {} };
}

/**
 * Takes one answer to a question, or says why not. `decide(key, response, sentAt)` hands a decided
 * question's answer to the round (exchange-state.ts `acceptKeyAnswer`).
 */
export function acceptQuestionAnswer(
  state: WithQuestions,
  answer: QuestionAnswer,
  caller: QuestionCaller,
  decide: (answer: QuestionAnswer, decision: QuestionAnswer['response']) => void,
): QuestionVerdict {
  if (state.status !== 'running') return 'duplicate';
  const expected = state.awaiting ?? state.round + 1;
  if (answer.round < expected) return 'duplicate';
  if (answer.round > expected || state.awaiting === undefined) return holdAhead(state, answer);
  const questions = state.questions;
  const addressing = questions?.round === answer.round ? questions.addressing[answer.key] : undefined;
  if (!questions || !addressing) return 'unexpected';
  const taken = (questions.taken[answer.key] ??= []);
  if (taken.some((t) => t.answerId === answer.answerId)) return 'duplicate';
  if (isLate(state.deadlineAt, answer.sentAt)) return 'late';
  const admitted = admission(addressing, answer.by, {
    caller,
    askedAt: questions.askedAt,
    at: answer.sentAt,
    taken,
    action: answer.response.action,
  });
  if (!admitted.admitted) return admitted.reason;
  taken.push({ slot: admitted.slot, by: answer.by, response: answer.response, answerId: answer.answerId, answer });
  const decision = decisionOf(addressing, taken);
  if (!decision) return 'taken';
  decide(answer, decision);
  return 'decided';
}

function holdAhead(state: WithQuestions, answer: QuestionAnswer): QuestionVerdict {
  if (state.questionsAhead?.some((held) => held.answerId === answer.answerId)) return 'duplicate';
  (state.questionsAhead ??= []).push(answer);
  return 'held';
}

/** Folds in the questions of an ask just recorded, then applies the answers held for them. */
export function foldQuestions(
  state: WithQuestions,
  summary: RoundSummary,
  apply: (answer: QuestionAnswer) => void,
): void {
  state.questions = questionsOf(summary);
  const held = state.questionsAhead;
  if (!held) return;
  state.questionsAhead = summary.kind === 'ask' ? held.filter((answer) => answer.round > summary.round) : undefined;
  if (state.questionsAhead?.length === 0) state.questionsAhead = undefined;
  if (summary.kind === 'ask') for (const answer of held.filter((a) => a.round === summary.round)) apply(answer);
}

/** Who answered each decided question of the awaited ask, for the handler's `ctx.answeredBy`. */
export function answeredByOf(questions: QuestionsState | undefined): Record<string, AnsweredBy[]> | undefined {
  if (!questions) return undefined;
  const entries = Object.entries(questions.taken).map(([key, taken]) => [
    key,
    taken.map(({ answer }) => ({
      principal: {
        id: answer.by.id,
        subject: answer.by.subject,
        ...(answer.by.issuer !== undefined ? { issuer: answer.by.issuer } : {}),
        ...(answer.by.name !== undefined ? { name: answer.by.name } : {}),
      },
      at: answer.sentAt,
      via: answer.via,
      action: answer.response.action,
      ...(answer.evidence !== undefined ? { evidence: answer.evidence } : {}),
    })),
  ]);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
