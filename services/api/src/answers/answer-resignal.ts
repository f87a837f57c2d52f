/**
 * Delivers the answers an API claimed but never confirmed signalling (it died between the claim
 * and the signal, or Temporal refused it then): every replica looks every `afterMs` for taken
 * answers older than that with no confirmed signal, and signals them. A repeat is harmless (the
 * workflow takes an answer id once), so two replicas doing it at once cost a duplicate signal.
 *
 * Each answer is handled on its own: one whose signal fails (its workflow refuses the payload,
 * Temporal is unreachable) does not hold up the others of the batch, which are still signalled and
 * marked. The failure is logged and recorded with the answer in Postgres (so every replica knows
 * it), and the answer is left out of the batches until its next try (resignal-backoff.ts: later
 * after each failure, at most an hour apart), so a failing answer is never retried in a loop and
 * failing answers never fill a batch that others wait behind.
 */
import type { QuestionStore } from '../../../../lib/db/question-store';
import type { Logger } from '../../../../lib/log';
import type { QuestionAnswering } from '../../../../lib/exchange-client/question-answering';
import { resignalBackoffMs } from './resignal-backoff';
import { postgresErrorFields } from '../../../../lib/db/connection-loss';

export interface ResignalRun {
  delivered: number;
  failed: number;
}

export function startAnswerResignal(
  deps: {
    questions: Pick<QuestionStore, 'unsignalled' | 'signalFailed'>;
    answering: Pick<QuestionAnswering, 'deliver'>;
    log: Logger;
  },
  options: { afterMs: number; batch?: number },
) {
  let running = false;

  /** One answer signalled and marked, or its failure recorded; true when it was delivered. */
  async function deliverOne(exchangeId: string, answer: Parameters<QuestionAnswering['deliver']>[1], failures: number) {
    try {
      await deps.answering.deliver(exchangeId, answer);
      return true;
    } catch (error) {
      const retryInMs = resignalBackoffMs(failures + 1, options.afterMs);
      const log = deps.log.child({ exchangeId, round: answer.round, key: answer.key, answerId: answer.answerId });
      log.warn(
        { err: error, failures: failures + 1, retryInMs },
        'signalling a claimed question answer failed; it will be tried again later',
      );
      await deps.questions
        .signalFailed(answer.answerId, retryInMs)
        .catch((recording: unknown) => log.warn({ err: recording }, 'recording the failed signal failed'));
      return false;
    }
  }

  const resignal = async (): Promise<ResignalRun> => {
    const run: ResignalRun = { delivered: 0, failed: 0 };
    if (running) return run;
    running = true;
    try {
      const due = await deps.questions.unsignalled(options.afterMs, options.batch ?? 100);
      for (const { exchangeId, answer, signalFailures } of due) {
        if (await deliverOne(exchangeId, answer, signalFailures)) run.delivered += 1;
        else run.failed += 1;
      }
      if (run.delivered || run.failed) deps.log.info(run, 'claimed question answers signalled again');
    } catch (error) {
      deps.log.warn(
        postgresErrorFields(error),
        'reading the claimed question answers to signal failed; will try again',
      );
    } finally {
      running = false;
    }
    return run;
  };
  const timer = setInterval(() => void resignal(), options.afterMs);
  timer.unref();
  return { resignal, stop: () => clearInterval(timer) };
}
