/**
 * What a question is about, as an answerer must see it before answering: the tool (or prompt or
 * resource), who called it, the call's arguments, the deadline, and the handler's message. An
 * argument's value is shown as its JSON, cut to a length a page can hold; what is cut says so.
 */
import type { QuestionView } from '../../../../../lib/questions/question';
import { html, type Html } from './html';
import { timeLeft, utcTime } from './time-text';

/** At most this many characters of one argument's JSON (and of its name), and this many arguments. */
export const MAX_ARGUMENT_CHARS = 300;
export const MAX_ARGUMENT_NAME_CHARS = 100;
export const MAX_ARGUMENTS = 40;

const TARGET_KINDS: Record<string, string> = {
  'tools/call': 'Tool',
  'prompts/get': 'Prompt',
  'resources/read': 'Resource',
};

/** `text` cut to `max` code points, with an ellipsis when cut. */
export function capped(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function argumentList(args: Record<string, unknown>): Html {
  const entries = Object.entries(args);
  if (entries.length === 0) return html`<p>No arguments.</p>`;
  const shown = entries.slice(0, MAX_ARGUMENTS).map(([name, value]) => {
    const json = JSON.stringify(value) ?? String(value);
    return html`<dt>${capped(name, MAX_ARGUMENT_NAME_CHARS)}</dt><dd><code>${capped(json, MAX_ARGUMENT_CHARS)}</code></dd>`;
  });
  const more = entries.length - MAX_ARGUMENTS;
  return html`<dl class="arguments">${shown}</dl>${more > 0 ? html`<p>And ${more} more not shown.</p>` : undefined}`;
}

/** The caller as a person reads it: the subject, and the issuer when there is one. */
export function callerText(caller: QuestionView['caller']): string {
  return caller.issuer ? `${caller.subject} (${caller.issuer})` : caller.subject;
}

/** The question's call, caller, deadline, message and arguments. */
export function renderCallSummary(question: QuestionView, now: number): Html {
  const kind = TARGET_KINDS[question.method] ?? question.method;
  const deadline =
    question.status === 'waiting'
      ? html`${utcTime(question.deadlineAt)} (${timeLeft(question.deadlineAt, now)})`
      : utcTime(question.deadlineAt);
  return html`<dl class="call">
<dt>${kind}</dt><dd><code>${question.target}</code></dd>
<dt>Caller</dt><dd>${callerText(question.caller)}</dd>
<dt>Asked</dt><dd>${utcTime(question.askedAt)}</dd>
<dt>Deadline</dt><dd>${deadline}</dd>
</dl>
<p class="message">${question.message}</p>
<h2>Arguments</h2>
${argumentList(question.arguments)}`;
}
