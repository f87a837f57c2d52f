/**
 * Delivers the answers an API claimed but never confirmed signalling (it died between the claim
 * and the signal, or Temporal refused it then): every replica looks every `afterMs` for taken
 * answers older than that with no confirmed signal, and signals them. A repeat is harmless (the
 * workflow takes an answer id once), so two replicas doing it at once cost a duplicate signal.
 */
import type { QuestionStore } from '../../../../lib/db/question-store';
import type { Logger } from '../../../../lib/log';
import type { QuestionAnswering } from '../../../../lib/exchange-client/question-answering';

export function startAnswerResignal(
  deps: { questions: QuestionStore; answering: Pick<QuestionAnswering, 'deliver'>; log: Logger },
  options: { afterMs: number; batch?: number },
) {
  let running = false;
  const resignal = async (): Promise<number> => {
    if (running) return 0;
    running = true;
    let delivered = 0;
    try {
      for (const { exchangeId, answer } of await deps.questions.unsignalled(options.afterMs, options.batch ?? 100)) {
        await deps.answering.deliver(exchangeId, answer);
        delivered += 1;
      }
      if (delivered) deps.log.info({ delivered }, 'claimed question answers signalled again');
    } catch (error) {
      deps.log.warn({ err: error }, 'signalling claimed question answers failed; will try again');
    } finally {
      running = false;
    }
    return delivered;
  };
  const timer = setInterval(() => void resignal(), options.afterMs);
  timer.unref();
  return { resignal, stop: () => clearInterval(timer) };
}
