/**
 * The event a webhook carries: a question's moment (waiting, a reminder, an escalation, an ending)
 * and what a bot needs to route it (who it is addressed to, its page, its deadline). Never the
 * call's arguments, its caller or an answer's content: the body goes to a third party, and the
 * question's page shows those to whoever may answer. Pure and free of Node APIs: workflow code
 * builds events.
 */
import type { Addressing, AnswerChannel, ElicitAnswer, QuestionView } from '../questions/question';

export const QUESTION_EVENT_TYPES = [
  'question.waiting',
  'question.reminder',
  'question.escalated',
  'question.answered',
  'question.expired',
  'question.cancelled',
] as const;
export type QuestionEventType = (typeof QUESTION_EVENT_TYPES)[number];

/** One answer the question took, as a receiver is told of it: who, when, through what, which action. */
export interface QuestionEventAnswer {
  id: string;
  subject: string;
  name?: string;
  /** ISO 8601. */
  at: string;
  via: AnswerChannel;
  action: ElicitAnswer['action'];
}

export interface QuestionEvent {
  /** The same for every delivery of this event (the `webhook-id`), so a receiver can drop repeats. */
  id: string;
  type: QuestionEventType;
  /** ISO 8601. */
  occurredAt: string;
  question: {
    id: string;
    /** The question's page, where it is read and answered. */
    url: string;
    exchangeId: string;
    round: number;
    key: string;
    method: string;
    target: string;
    message: string;
    addressees: Addressing;
    /** ISO 8601. */
    deadlineAt: string;
    answeredBy?: QuestionEventAnswer[];
  };
}

/**
 * An event's id: its question and its type, nothing else, so a retried workflow task or activity
 * makes the same id (and the same delivery workflow id), and a receiver sees one event once. A
 * question is in each state at most once (one reminder, one escalation), so the pair is unique.
 */
export function questionEventId(questionId: string, type: QuestionEventType): string {
  return `${questionId}.${type.slice('question.'.length)}`;
}

const iso = (epochMs: number) => new Date(epochMs).toISOString();

/**
 * The event of `type` for `view`. `occurredAt` is epoch ms (the workflow's clock, in a workflow);
 * `url` is the question's page. Answers are listed only for the events that follow them.
 */
/** What an event tells of a question. */
export type EventQuestion = Pick<
  QuestionView,
  'id' | 'exchangeId' | 'round' | 'key' | 'method' | 'target' | 'message' | 'addressing' | 'deadlineAt' | 'answers'
>;

export function questionEvent(
  type: QuestionEventType,
  view: EventQuestion,
  at: { url: string; occurredAt: number },
): QuestionEvent {
  const answeredBy = view.answers.map((answer): QuestionEventAnswer => ({
    id: answer.by.id,
    subject: answer.by.subject,
    ...(answer.by.name !== undefined ? { name: answer.by.name } : {}),
    at: iso(answer.at),
    via: answer.via,
    action: answer.action,
  }));
  return {
    id: questionEventId(view.id, type),
    type,
    occurredAt: iso(at.occurredAt),
    question: {
      id: view.id,
      url: at.url,
      exchangeId: view.exchangeId,
      round: view.round,
      key: view.key,
      method: view.method,
      target: view.target,
      message: view.message,
      addressees: view.addressing,
      deadlineAt: iso(view.deadlineAt),
      ...(answeredBy.length > 0 ? { answeredBy } : {}),
    },
  };
}
