/**
 * The short pages in place of a question: sign-in needed (with the way to sign in), a question
 * addressed to someone else (it exists, and is not theirs; when it is for a group and the sign-in
 * brought none, that too), and one that does not exist. Each says only that: nothing of what a
 * question asks is shown to someone it is not for.
 */
import { INBOX_PATH } from './answer-paths';
import { html, type Html } from './html';
import { renderPage } from './layout';

export type Notice =
  | { kind: 'signInNeeded'; signInHref: string }
  /** `noGroups`: the question is addressed to a group and the sign-in brought none (groups-hint.ts). */
  | { kind: 'notAddressed'; noGroups?: boolean }
  | { kind: 'notFound' };

const back = html`<p><a href="${INBOX_PATH}">Your questions</a></p>`;

function content(notice: Notice): { title: string; body: Html } {
  switch (notice.kind) {
    case 'signInNeeded':
      return {
        title: 'Sign in to answer',
        body: html`<p>This page is for the people a question is addressed to.</p><p><a href="${notice.signInHref}">Sign in</a></p>`,
      };
    case 'notAddressed':
      if (notice.noGroups)
        return {
          title: 'Your sign-in brought no groups',
          body: html`<p>There is a question at this address for the members of a group, and you are signed in without any group, so it is not yours to answer and what it asks is not shown.</p><p>If you are in the group it is for, your sign-in did not bring your groups: tell whoever runs this service to check that the sign-in asks the identity provider for them (the groups scope in <code>ANSWER_OIDC_SCOPES</code>) and reads the claim they come in (<code>ANSWER_GROUPS_CLAIM</code>).</p>${back}`,
        };
      return {
        title: 'Not addressed to you',
        body: html`<p>There is a question at this address, but it is not addressed to you, so what it asks is not shown.</p><p>If you should answer it, ask whoever sent you its link to address it to you.</p>${back}`,
      };
    case 'notFound':
      return { title: 'No such question', body: html`<p>There is no question at this address.</p>${back}` };
  }
}

/** The whole notice page, with the sign-in's banner (layout.ts) when it has one. */
export function renderNotice(notice: Notice, banner?: Html): string {
  return renderPage({ ...content(notice), banner });
}
