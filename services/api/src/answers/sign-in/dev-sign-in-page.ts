/**
 * The development sign-in's pages, in the answer page's own frame (page/layout.ts) under its
 * banner: the form where a developer names who they are (a subject, an optional display name,
 * groups separated by commas) and how they signed in (an `acr`, methods), with each field's
 * problem beside it when a post is refused, and
 * the short pages the sign-in shows (a refusal, signed out). Plain HTML, no script: the fields
 * are the answer form's own inputs (page/field-input.ts), so the page reads the same.
 */
import type { Response } from 'express';
import {
  DEV_SIGN_IN_ISSUER,
  MAX_DEV_SUBJECT_LENGTH,
  type DevSignInField,
  type DevSignInProblem,
} from '../../../../../lib/auth/dev-answerer';
import { MAX_NAME_LENGTH } from '../../../../../lib/auth/answerer-claims';
import { ANONYMOUS_PRINCIPAL_ID } from '../../../../../lib/exchange/principal';
import { CSRF_FIELD } from '../../../../../lib/questions/form-field-names';
import type { TextField } from '../../../../../lib/questions/requested-field';
import { DEV_SIGN_IN_BANNER } from '../page/dev-sign-in-banner';
import { renderField } from '../page/field-input';
import { html, raw } from '../page/html';
import { renderPage } from '../page/layout';

/** Where the form posts, and the hidden field that says where to go once signed in. */
export const DEV_SIGN_IN_PATH = '/answers/sign-in';
export const RETURN_FIELD = 'return';

export interface DevSignInForm {
  /** The form's CSRF token (dev-sign-in-forms.ts). */
  token: string;
  /** Where the browser goes once signed in (already checked by return-path.ts). */
  returnTo: string;
  /** What was posted, when a refused post comes back. */
  values?: Partial<Record<DevSignInField, string>>;
  problems?: DevSignInProblem[];
}

const FIELDS: Array<TextField & { name: DevSignInField }> = [
  {
    kind: 'text',
    name: 'subject',
    title: 'Subject',
    description: `Who you are signing in as, as an issuer's "sub" would name them (alice, say). The subject ${ANONYMOUS_PRINCIPAL_ID} is the caller itself (every AUTH_MODE=off call comes from it); anyone else is keyed under ${DEV_SIGN_IN_ISSUER}.`,
    required: true,
    maxLength: MAX_DEV_SUBJECT_LENGTH,
  },
  { kind: 'text', name: 'name', title: 'Display name', required: false, maxLength: MAX_NAME_LENGTH },
  {
    kind: 'text',
    name: 'groups',
    title: 'Groups',
    description:
      'Separated by commas (refund-approvers, finance-leads): a question addressed to a group admits its members.',
    required: false,
  },
  {
    kind: 'text',
    name: 'amr',
    title: 'Signed in with',
    description:
      'Authentication methods, as an ID token\'s "amr" would list them, separated by commas (pwd, otp, mfa): for a question that requires them.',
    required: false,
  },
  {
    kind: 'text',
    name: 'acr',
    title: 'Authentication level',
    description: 'An ID token\'s "acr", for a question that requires one.',
    required: false,
  },
];

/** The whole form page. */
export function renderDevSignIn(form: DevSignInForm): string {
  const problems = form.problems ?? [];
  const fields = FIELDS.map((field) => {
    const value = form.values?.[field.name];
    return renderField(field, {
      name: field.name,
      id: `sign-in-${field.name}`,
      values: value === undefined ? [] : [value],
      checked: false,
      problems: problems
        .filter((problem) => problem.field === field.name)
        .map((problem) => ({ path: field.name, message: problem.message })),
    });
  });
  const summary =
    problems.length > 0
      ? html`<div class="problems" role="alert"><p>You are not signed in. Check the fields marked below.</p></div>`
      : undefined;
  return renderPage({
    title: 'Sign in to answer',
    banner: DEV_SIGN_IN_BANNER,
    body: html`<p>Name the person you are answering as. Nothing is checked: this sign-in believes what you type.</p>
      <form method="post" action="${DEV_SIGN_IN_PATH}">
        ${summary}
        <input type="hidden" name="${CSRF_FIELD}" value="${form.token}" />
        <input type="hidden" name="${RETURN_FIELD}" value="${form.returnTo}" />
        ${fields}
        <div class="actions"><button type="submit">Sign in</button></div>
      </form>`,
  });
}

/**
 * One of the sign-in's short pages (a refusal, signed out) under the banner; `bodyHtml` is markup
 * the sign-in wrote itself (sign-out.ts's `SignInPageWriter`).
 */
export function devSignInPage(res: Response, status: number, title: string, bodyHtml: string): void {
  res
    .status(status)
    .type('html')
    .send(renderPage({ title, banner: DEV_SIGN_IN_BANNER, body: raw(bodyHtml) }));
}

/** The way back to the form, as a link for the short pages. */
export const signInAgainLink = (): string => `<p><a href="${DEV_SIGN_IN_PATH}">Sign in again</a></p>`;
