/**
 * A person or a principal as an approver must be able to tell them apart: by what the service
 * verified, the subject and the issuer that vouched for it; the display name (which anyone may set
 * to anything) and the email (only when the issuer said it is verified) only beside them, never in
 * their place. Everything through visible-text.ts, so a name cannot hide or reorder what follows it.
 */
import { html, type Html } from './html';
import { visibleText } from './visible-text';

export interface ShownIdentity {
  subject: string;
  issuer?: string;
  name?: string;
  email?: string;
}

/** `rita of https://id.example.com (“Rita Approver”, rita@example.com)`. */
export function renderIdentity(who: ShownIdentity): Html {
  const extras = [
    ...(who.name !== undefined ? [html`“${visibleText(who.name)}”`] : []),
    ...(who.email !== undefined ? [html`${visibleText(who.email)}`] : []),
  ];
  const issuer = who.issuer !== undefined ? html` of <code>${visibleText(who.issuer)}</code>` : undefined;
  const beside = extras.length > 0 ? html` (${extras.flatMap((e, i) => (i === 0 ? [e] : [html`, `, e]))})` : undefined;
  return html`<span class="identity"><code>${visibleText(who.subject)}</code>${issuer}${beside}</span>`;
}
