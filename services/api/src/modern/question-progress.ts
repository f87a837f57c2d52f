/**
 * Tells a 2026-07-28 leg that waits on a question addressed to someone else who it waits for: a
 * `notifications/progress` at once and then every QUESTION_PROGRESS_EVERY_MS, while the leg
 * holds, when it sent a progress token and takes a stream. A client that resets its request
 * timeout on progress (the official SDK's `resetTimeoutOnProgress`) keeps waiting as long as the
 * leg holds. Nothing is stored: the next leg is told again.
 */
import type { RoundRecord } from '../../../../lib/exchange/types';
import { callerPageOf } from '../../../../lib/questions/caller-url';
import { waitingMessage } from '../../../../lib/questions/waiting-message';

export function questionProgress(
  send: (notification: Record<string, unknown>) => void | Promise<void>,
  progressToken: string | number,
  everyMs: number,
  questionPageUrl?: (questionId: string) => string,
) {
  let progress = 0;
  let message = '';
  let timer: NodeJS.Timeout | undefined;
  const tell = () => {
    progress += 1;
    void Promise.resolve(
      send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress, message } }),
    ).catch(() => undefined);
  };
  return {
    /** The leg waits past `record`, an ask addressed to someone else. */
    onQuestions(record: RoundRecord) {
      if (record.outcome.kind !== 'ask') return;
      const { inputRequests } = record.outcome;
      const page = callerPageOf(record.exchangeId, record.round, inputRequests, questionPageUrl);
      message = waitingMessage(inputRequests, record.deadlineAt?.getTime(), page);
      tell();
      timer ??= setInterval(tell, everyMs);
    },
    stop: () => clearInterval(timer),
  };
}
