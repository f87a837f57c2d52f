/** The header of a signed-in answerer's pages: who is signed in, the way back to their questions, and signing out. */
import { CSRF_FIELD } from '../../../../../lib/questions/form-field-names';
import type { AnswererIdentity } from '../../../../../lib/questions/question';
import { INBOX_PATH, SIGN_OUT_PATH } from './answer-paths';
import { html, type Html } from './html';

/** The answerer's display name, or their subject when the service knows no name. */
export const displayName = (answerer: AnswererIdentity) => answerer.name ?? answerer.subject;

/** The header, with its sign-out button: a POST carrying the session's `signOutCsrf`, so no link can sign anyone out. */
export function renderPageHeader(answerer: AnswererIdentity, signOutCsrf: string): Html {
  const signOut = html`<form method="post" action="${SIGN_OUT_PATH}"><input type="hidden" name="${CSRF_FIELD}" value="${signOutCsrf}"><button type="submit">Sign out</button></form>`;
  return html`<a href="${INBOX_PATH}">Your questions</a><span>Signed in as ${displayName(answerer)}</span>${signOut}`;
}
