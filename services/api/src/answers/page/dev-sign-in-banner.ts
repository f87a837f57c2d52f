/**
 * The line every page of the development sign-in (ANSWER_DEV_SIGN_IN) starts with: there, anyone
 * can sign in as anyone, so nobody should mistake a page for one behind a real sign-in, nor an
 * answer given there for a real approver's.
 */
import { html } from './html';

export const DEV_SIGN_IN_BANNER = html`<p class="banner" role="note"><strong>Development sign-in.</strong> Anyone can sign in here as anyone, with any groups: this answer page is for local development only (<code>AUTH_MODE=off</code>, <code>ANSWER_DEV_SIGN_IN=true</code>).</p>`;
