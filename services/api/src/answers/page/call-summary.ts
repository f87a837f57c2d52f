/**
 * What a question is about, as an answerer must see it before answering: the tool (or prompt or
 * resource), who called it (by subject and issuer), when it was asked and its deadline, the
 * handler's message, and every argument of the call, whole. What is shown is what the answer's
 * `shownDigest` vouches for, so nothing is cut and nothing is hidden: a long value is folded
 * (argument-value.ts), and characters that show nothing or reorder text are shown as markers
 * (visible-text.ts), in the message and the names as in the values.
 */
import type { QuestionView } from '../../../../../lib/questions/question';
import { renderArgumentValue } from './argument-value';
import { html, type Html } from './html';
import { renderIdentity } from './identity-text';
import { timeLeft, utcTime } from './time-text';
import { visibleText } from './visible-text';

const TARGET_KINDS: Record<string, string> = {
  'tools/call': 'Tool',
  'prompts/get': 'Prompt',
  'resources/read': 'Resource',
};

/** `text` cut to `max` code points, with an ellipsis when cut (a list's preview; a question's page shows all). */
export function capped(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The caller as a person reads it: the subject, and the issuer when there is one. */
export const renderCaller = (caller: QuestionView['caller']): Html => renderIdentity(caller);

/** Every argument, in the order the caller sent them. */
function argumentList(args: Record<string, unknown>): Html {
  const entries = Object.entries(args);
  if (entries.length === 0) return html`<p>No arguments.</p>`;
  const shown = entries.map(
    ([name, value]) => html`<dt><code>${visibleText(name)}</code></dt><dd>${renderArgumentValue(value)}</dd>`,
  );
  return html`<dl class="arguments">${shown}</dl>`;
}

/** The question's call, caller, times and message, without its arguments. */
export function renderCallHead(question: QuestionView, now: number): Html {
  const kind = TARGET_KINDS[question.method] ?? question.method;
  const deadline =
    question.status === 'waiting'
      ? html`${utcTime(question.deadlineAt)} (${timeLeft(question.deadlineAt, now)})`
      : utcTime(question.deadlineAt);
  return html`<dl class="call">
<dt>${kind}</dt><dd><code>${visibleText(question.target)}</code></dd>
<dt>Caller</dt><dd>${renderCaller(question.caller)}</dd>
<dt>Asked</dt><dd>${utcTime(question.askedAt)}</dd>
<dt>Deadline</dt><dd>${deadline}</dd>
</dl>
<p class="message">${visibleText(question.message, { lines: true })}</p>`;
}

/** The question's call, caller, deadline, message and arguments. */
export function renderCallSummary(question: QuestionView, now: number): Html {
  return html`${renderCallHead(question, now)}
<h2>Arguments</h2>
${argumentList(question.arguments)}`;
}
