/**
 * The chat: posts through its incoming webhook (Slack's shape, `{ "text": … }`; Mattermost and
 * Rocket.Chat take the same), and the text of each question event. Text from the service is
 * escaped as Slack's markup needs (`&`, `<`, `>`), so a question's message cannot form a link or
 * a mention.
 */
import type { QuestionEvent } from 'durable-mcp/webhooks';

export async function postToChat(url: string, text: string, timeoutMs: number): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  // Never the URL in an error: an incoming webhook's URL is its credential.
  if (!response.ok) throw new Error(`the chat answered ${response.status}`);
}

export const escapeChat = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Who a question is for, in a few words: `holders of refunds:approve, carol`. */
function addresseesOf(event: QuestionEvent): string {
  const { anyOf, eachOf } = event.question.addressees;
  const named = (anyOf ?? eachOf ?? []).map((a) =>
    'scope' in a
      ? `holders of ${a.scope}`
      : 'group' in a
        ? `group ${a.group}`
        : 'caller' in a
          ? 'the caller'
          : 'service' in a
            ? `service ${a.service}`
            : a.subject,
  );
  return `${eachOf ? 'each of' : 'any of'} ${named.join(', ')}`;
}

const HEADLINES: Partial<Record<QuestionEvent['type'], string>> = {
  'question.waiting': 'A question is waiting',
  'question.reminder': 'Reminder: a question is still waiting',
  'question.escalated': 'Escalated: a question is still waiting',
};

/**
 * The chat's text for an event, or undefined for an event type this bot does not know. The
 * question's page is absolute once the service has ANSWER_PUBLIC_URL; a path before that, read
 * against `serviceUrl`.
 */
export function chatTextOf(event: QuestionEvent, serviceUrl: string): string | undefined {
  const { id, message, deadlineAt } = event.question;
  const url = new URL(event.question.url, serviceUrl).href;
  const headline = HEADLINES[event.type];
  if (headline !== undefined)
    return [
      `*${headline}* (for ${escapeChat(addresseesOf(event))}, until ${deadlineAt})`,
      `> ${escapeChat(message)}`,
      `Answer at <${url}|the question's page>, or here: \`approve ${id} [note]\` or \`decline ${id}\``,
    ].join('\n');
  switch (event.type) {
    case 'question.answered': {
      const who = (event.question.answeredBy ?? []).map((a) => `${a.name ?? a.subject} (${a.action}, via ${a.via})`);
      return `Answered by ${escapeChat(who.join(', ') || 'someone')}: ${escapeChat(message)} [${id}]`;
    }
    case 'question.expired':
      return `Expired, nobody answered: ${escapeChat(message)} [${id}]`;
    case 'question.cancelled':
      return `Cancelled: ${escapeChat(message)} [${id}]`;
    default:
      return undefined;
  }
}
