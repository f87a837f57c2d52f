/**
 * The signed-in answerer's inbox: the questions waiting for them, soonest deadline first, each
 * with its tool, caller, message (cut short: the question's page shows it whole), deadline and
 * link; or a plain sentence when nothing waits. When more wait than one list holds
 * (MAX_LISTED_QUESTIONS; the store takes them round robin by caller), it says how many more.
 */
import type { AnswererIdentity, QuestionView } from '../../../../../lib/questions/question';
import { questionPath } from './answer-paths';
import { capped, renderCaller } from './call-summary';
import { html, type Html } from './html';
import { renderPage } from './layout';
import { renderPageHeader } from './page-header';
import { timeLeft, utcTime } from './time-text';
import { visibleText } from './visible-text';

/** At most this many characters of a message in the list. */
export const MAX_LISTED_MESSAGE_CHARS = 200;

export interface InboxPage {
  answerer: AnswererIdentity;
  questions: QuestionView[];
  /** Questions waiting beyond the list (0 when it holds them all). */
  moreWaiting?: number;
  /** The anti-forgery token of the sign-out button. */
  signOutCsrf: string;
  /** The time the page is rendered at (epoch ms), for "in N minutes"; now when not given. */
  now?: number;
  /** The sign-in's banner (layout.ts), when it has one. */
  banner?: Html;
}

function listed(question: QuestionView, now: number): Html {
  return html`<li>
<a href="${questionPath(question.id)}"><code>${visibleText(question.target)}</code></a>
<p>${visibleText(capped(question.message, MAX_LISTED_MESSAGE_CHARS))}</p>
<p class="hint">From ${renderCaller(question.caller)}. Deadline ${utcTime(question.deadlineAt)} (${timeLeft(question.deadlineAt, now)}).</p>
</li>`;
}

/** How many wait beyond the list, said plainly; nothing when the list holds them all. */
function moreLine(more: number): Html | undefined {
  if (more <= 0) return undefined;
  const what = more === 1 ? '1 more question is' : `${more} more questions are`;
  return html`<p class="more">${what} waiting for you; they are listed here as these are answered.</p>`;
}

/** The whole inbox page. */
export function renderInbox(page: InboxPage): string {
  const now = page.now ?? Date.now();
  const questions = [...page.questions].sort((a, b) => a.deadlineAt - b.deadlineAt);
  const list =
    questions.length === 0
      ? html`<p class="empty">Nothing is waiting for you.</p>`
      : html`<ul class="questions">${questions.map((question) => listed(question, now))}</ul>`;
  return renderPage({
    title: 'Questions for you',
    header: renderPageHeader(page.answerer, page.signOutCsrf),
    body: html`${list}${moreLine(page.moreWaiting ?? 0)}`,
    banner: page.banner,
  });
}
