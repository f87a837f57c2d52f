/**
 * Whom an ask waits on, as the `WaitingOn` search attribute lists it in the Temporal UI: `caller`
 * for what the caller's client answers (every request of an ask not addressed to someone, and an
 * addressed question's `answerer.caller()`), and each addressee of its addressed questions
 * (`elicitFrom`) as a short keyword: `group:finance`, `scope:refunds:approve`,
 * `principal:<issuer>|<subject>`, `service:<client id>`. An escalation's answerers are not listed:
 * the question does not wait on them until its escalation comes due.
 *
 * Bounded as Temporal's keyword limits allow: at most `MAX_WAITING_ON_VALUES` values, each at most
 * `MAX_WAITING_ON_BYTES` bytes of UTF-8. Pure and free of Node imports: the workflow bundle imports it.
 */
import type { Addressing, Answerer } from '@durable-mcp/handlers';

/** The most values one exchange's `WaitingOn` holds (a keyword list's values are indexed one by one). */
export const MAX_WAITING_ON_VALUES = 20;
/** The longest value, in bytes of UTF-8 (a keyword's limit on SQL visibility). */
export const MAX_WAITING_ON_BYTES = 255;

/** The caller, as `WaitingOn` names it. */
export const WAITING_ON_CALLER = 'caller';

/** One answerer as a keyword. */
export function waitingOnKeyword(answerer: Answerer): string {
  if ('group' in answerer) return `group:${answerer.group}`;
  if ('scope' in answerer) return `scope:${answerer.scope}`;
  if ('service' in answerer) return `service:${answerer.service}`;
  if ('caller' in answerer) return WAITING_ON_CALLER;
  return `principal:${answerer.issuer}|${answerer.subject}`;
}

/** `text` cut to at most `max` bytes of UTF-8, never inside a character. */
export function clipUtf8(text: string, max: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Length(char.codePointAt(0)!);
    if (bytes + size > max) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * The `WaitingOn` values of an ask: its keys (`askKeys`) and, for those addressed to someone, their
 * addressing (`questions`). Distinct, in the order the ask names them; `caller` first when the
 * caller's client answers part of it.
 */
export function waitingOnOf(askKeys: readonly string[], questions: Record<string, Addressing> | undefined): string[] {
  const values = new Set<string>();
  if (askKeys.some((key) => !questions || !Object.hasOwn(questions, key))) values.add(WAITING_ON_CALLER);
  for (const addressing of Object.values(questions ?? {}))
    for (const answerer of [...(addressing.anyOf ?? []), ...(addressing.eachOf ?? [])])
      values.add(clipUtf8(waitingOnKeyword(answerer), MAX_WAITING_ON_BYTES));
  return [...values].slice(0, MAX_WAITING_ON_VALUES);
}
