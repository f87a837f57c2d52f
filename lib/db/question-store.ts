/**
 * The questions as the API reads and answers them (the worker writes them with their ask,
 * question-rows-pg.ts): an answerer's inbox, one question, the claim of an answer under the
 * question's lock (first admitted answer wins), and the answers whose signal is not yet confirmed.
 */
import type { SlottedAnswer } from '../questions/admission';
import type { Judgement, Refusal } from '../questions/answer-judgement';
import type {
  AnswerChannel,
  AnswererIdentity,
  ElicitAnswer,
  QuestionAnswer,
  QuestionView,
} from '../questions/question';

/** One attempt to answer, as the audit keeps it. */
export interface AnswerAttempt {
  id: string;
  questionId: string;
  by: AnswererIdentity;
  via: AnswerChannel;
  at: number;
  action?: ElicitAnswer['action'];
  taken: boolean;
  refusal?: Refusal;
}

export interface NewAttempt {
  questionId: string;
  by: AnswererIdentity;
  via: AnswerChannel;
  response: ElicitAnswer;
  shownDigest: string;
  /** When the API takes the attempt (epoch ms): judged against the deadline, and the answer's `sentAt`. */
  at: number;
}

/** The evidence entry a decision was logged as (lib/db/evidence-log-pg.ts): its seq and hash. */
export interface EvidenceRef {
  seq: number;
  hash: string;
}

export type ClaimOutcome =
  | { kind: 'not-found' }
  /** `evidence` is absent for a refusal past MAX_RECORDED_REFUSALS: it is only counted. */
  | { kind: 'refused'; refusal: Refusal; question: QuestionView; evidence?: EvidenceRef }
  | { kind: 'taken'; decided: boolean; question: QuestionView; answer: QuestionAnswer; evidence: EvidenceRef };

/** An inbox: the questions listed, and how many more wait beyond the list. */
export interface WaitingQuestions {
  questions: QuestionView[];
  moreWaiting: number;
}

export interface QuestionStore {
  /**
   * The waiting questions any of `keys` (lib/questions/addressing.ts `identityKeys`) is addressed by
   * at `now`, at most `limit`, taken round robin by caller (every caller's soonest deadline, then
   * every caller's next, each turn soonest deadline first), so that one caller's flood of questions
   * cannot push another caller's out of the list; and how many more wait.
   */
  waitingFor(keys: string[], now: number, limit: number): Promise<WaitingQuestions>;
  read(id: string): Promise<QuestionView | undefined>;
  /**
   * Judges an attempt under the question's row lock (`judge`: answer-judgement.ts) and records it:
   * a taken answer with its result (and the question answered once it decides), a refusal with its
   * reason (past `maxRecordedRefusals` for the question, only counted); each recorded one is an
   * entry of the evidence log, appended in the same transaction.
   */
  claim(
    attempt: NewAttempt,
    judge: (question: QuestionView, taken: SlottedAnswer[]) => Judgement,
    maxRecordedRefusals: number,
  ): Promise<ClaimOutcome>;
  /** The taken answer's signal reached Temporal (or its workflow is gone): it is not signalled again. */
  markSignalled(answerId: string): Promise<void>;
  /**
   * Taken answers whose signal is unconfirmed after `olderThanMs` (an API died between claim and
   * signal, or the signal failed), oldest first, leaving out those whose failed signal is not due
   * to be tried again yet; with how many times their signal failed.
   */
  unsignalled(
    olderThanMs: number,
    limit: number,
  ): Promise<Array<{ exchangeId: string; answer: QuestionAnswer; signalFailures: number }>>;
  /** A taken answer's signal failed once more: it is not tried again for `retryInMs`. */
  signalFailed(answerId: string, retryInMs: number): Promise<void>;
  /** Every attempt on the questions of an exchange, in order (the admin API's audit). */
  attemptsOf(exchangeId: string): Promise<AnswerAttempt[]>;
  /** The questions of an exchange, in round and key order, with the answers each took. */
  ofExchange(exchangeId: string): Promise<QuestionView[]>;
}
