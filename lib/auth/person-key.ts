/**
 * One person, one key: how a person calling /mcp with a token and the same person signed in at the
 * answer page are known to be one, so that `excludeCaller`, `answerer.caller()` and an `eachOf`'s
 * distinct people hold. By default a person is their issuer and subject (`principalId(issuer,
 * sub)`), which holds only when the page signs people in at one of the issuers that issue /mcp's
 * tokens (config.ts refuses to start otherwise) and that issuer gives one subject per person
 * (not pairwise subjects, as Entra ID's `sub` is per application).
 *
 * Where that is not so, ANSWER_IDENTITY_CLAIM names the claim both carry for the same person
 * (`oid`, say, or `email`), and the key is that claim's value, whatever the issuer. A person
 * whose token or sign-in lacks it cannot be matched: the caller is then `unmatched` (every
 * comparison with it fails closed), and a sign-in without it is refused. `email` counts only
 * with `email_verified: true`, and is compared without case. Pure, and unit-tested beside it.
 */
import { principalId, type PersonKey } from '../exchange/principal';

export type { PersonKey };

/** What a claim value must be to key a person: a non-empty string or a number, short enough for a key. */
const MAX_CLAIM_VALUE = 200;

export function personKeyOf(claims: Record<string, unknown>, identityClaim: string): PersonKey {
  const raw = claims[identityClaim];
  const value = typeof raw === 'number' ? String(raw) : raw;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_CLAIM_VALUE)
    return { unmatched: `the token carries no ${identityClaim} claim (ANSWER_IDENTITY_CLAIM)` };
  if (identityClaim !== 'email') return { key: principalId(`claim:${identityClaim}`, value, undefined) };
  if (claims.email_verified !== true && claims.email_verified !== 'true')
    return { unmatched: 'the email claim is not verified (email_verified), so it names nobody for sure' };
  return { key: principalId('claim:email', value.toLowerCase(), undefined) };
}
