/**
 * What the current details say of an ask's questions addressed to someone other than the caller:
 * whom each waits on, and until when (its own wait, `elicitFrom`'s `waitMs`, not the round
 * timeout), and who may answer later (an escalation). Pure and free of Node imports: the workflow
 * bundle imports it. Names come from the handler's addressing; they are escaped as text.
 */
import type { Addressing, Answerer } from '@durable-mcp/handlers';
import { clip, MAX_NAME_CHARS, MAX_REQUESTS } from './ask-description';

/** At most this many answerers are named per question; the rest are counted. */
const MAX_ANSWERERS = 4;

const escape = (text: string) => text.replace(/[\\`*[\]<>|]/g, (c) => `\\${c}`);
const name = (text: string) => escape(clip(text, MAX_NAME_CHARS));

/** A wait as people say it: `4 h`, `90 min`, `600 s`. */
export function humanDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 60_000 === 0 && ms > 600_000) return `${ms / 60_000} min`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** One answerer as the details name it. */
export function answererLabel(answerer: Answerer): string {
  if ('group' in answerer) return `group ${name(answerer.group)}`;
  if ('scope' in answerer) return `scope ${name(answerer.scope)}`;
  if ('service' in answerer) return `service ${name(answerer.service)}`;
  if ('caller' in answerer) return 'the caller';
  return name(answerer.subject);
}

function answerers(list: Answerer[], joiner: 'or' | 'and'): string {
  const named = list.slice(0, MAX_ANSWERERS).map(answererLabel);
  const more = list.length - named.length;
  if (more > 0) named.push(`${more} more`);
  return named.length <= 1 ? (named[0] ?? 'nobody') : `${named.slice(0, -1).join(', ')} ${joiner} ${named.at(-1)}`;
}

/** Whom one question waits on: `group refund-approvers or scope refunds:approve (not the caller)`. */
export function waitsOn(addressing: Addressing): string {
  const who = addressing.eachOf?.length
    ? `each of ${answerers(addressing.eachOf, 'and')}`
    : answerers(addressing.anyOf ?? [], 'or');
  return addressing.excludeCaller ? `${who} (not the caller)` : who;
}

/**
 * One line per addressed question (at most `MAX_REQUESTS`): whom it waits on, its own deadline
 * and its own wait, and its escalation. `deadlineAt` is the ask's, which every addressed question
 * of one ask shares; `waitMs` is that wait.
 */
export function questionWaitLines(
  questions: Record<string, Addressing>,
  deadlineAt: number | undefined,
  waitMs: number,
): string[] {
  return Object.entries(questions)
    .slice(0, MAX_REQUESTS)
    .map(([key, addressing]) => {
      const until =
        deadlineAt !== undefined
          ? `until ${new Date(deadlineAt).toISOString()} (its own wait: ${humanDuration(waitMs)})`
          : `for ${humanDuration(waitMs)} (its own wait)`;
      const escalation = addressing.escalate
        ? `; after ${humanDuration(addressing.escalate.afterMs)} also ${answerers(addressing.escalate.to, 'or')}`
        : '';
      return `- ${name(key)} waits on ${waitsOn(addressing)} ${until}${escalation}`;
    });
}
