/**
 * An event's body within WEBHOOK_MAX_BODY_BYTES. A handler's message can be long; a receiver is
 * better served by a shortened message and the page's URL than by no event at all, so the message
 * is cut (marked with an ellipsis) until the body fits. Only a body that cannot fit even with an
 * empty message (a huge addressing) is refused.
 */
import type { QuestionEvent } from './question-event';

const ELLIPSIS = '…';
const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

/** The JSON body of `event`, at most `maxBytes` UTF-8 bytes, or undefined when it cannot be made to fit. */
export function eventBody(event: QuestionEvent, maxBytes: number): string | undefined {
  const whole = JSON.stringify(event);
  if (bytesOf(whole) <= maxBytes) return whole;
  const withMessage = (message: string) => JSON.stringify({ ...event, question: { ...event.question, message } });
  if (bytesOf(withMessage(ELLIPSIS)) > maxBytes) return undefined;
  // Binary search on code points: the longest prefix whose body fits (JSON escapes make bytes uneven).
  const chars = Array.from(event.question.message);
  let fits = 0;
  let tooLong = chars.length;
  while (tooLong - fits > 1) {
    const mid = Math.floor((fits + tooLong) / 2);
    if (bytesOf(withMessage(chars.slice(0, mid).join('') + ELLIPSIS)) <= maxBytes) fits = mid;
    else tooLong = mid;
  }
  return withMessage(chars.slice(0, fits).join('') + ELLIPSIS);
}
