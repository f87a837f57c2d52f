/**
 * A signed-in answerer's identity from what the provider says of them: the verified ID token's
 * claims, with the userinfo answer's beside them when the token lacks the groups or a name. The
 * key is `principalId(issuer, sub)`, the one a bearer token from the same issuer for the same
 * subject gets, so a question addressed to that person (`{ issuer, subject }`) admits them at the
 * page and through the API alike. Groups come from the configured claim, a string or a list;
 * what is not a string is dropped, and lists, names and groups are bounded so the identity fits
 * the session cookie. Pure, and unit-tested beside it.
 */
import { principalId } from '../exchange/principal';
import { displayClaimsOf, MAX_NAME_LENGTH } from './display-claims';
import { personKeyOf } from './person-key';
import { SignInRefused } from './sign-in-refused';
import type { AnswererIdentity } from '../questions/question';

/** Groups kept at most, and the longest group name kept (the longest display name: display-claims.ts). */
export const MAX_GROUPS = 100;
export const MAX_GROUP_LENGTH = 256;
export { MAX_NAME_LENGTH };

export type Claims = Record<string, unknown> & { sub: string };

/** The groups a claim's value names: a string is one group, a list is each of its strings. */
export function groupsOf(value: unknown): string[] {
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  const groups = items.filter(
    (item): item is string => typeof item === 'string' && item.length > 0 && item.length <= MAX_GROUP_LENGTH,
  );
  return [...new Set(groups)].slice(0, MAX_GROUPS);
}

/** Whether the ID token leaves out what userinfo may say: the groups claim, or both name and email. */
export const lacksProfile = (claims: Claims, groupsClaim: string): boolean =>
  claims[groupsClaim] === undefined || (claims.name === undefined && claims.email === undefined);

/**
 * The ID token's claims with userinfo's beside them; the token's win. Userinfo about another
 * subject is not this person's (OpenID Connect Core §5.3.2), so undefined is returned for it.
 */
export function withUserinfo(claims: Claims, userinfo: Record<string, unknown>): Claims | undefined {
  if (userinfo.sub !== claims.sub) return undefined;
  return { ...userinfo, ...claims };
}

/**
 * The person a provider that gives each application its own subjects (pairwise, OpenID Connect
 * Core §8) signs in cannot be matched with the caller of /mcp by subject: the sign-in is refused
 * unless ANSWER_IDENTITY_CLAIM says what names them on both sides.
 */
export function pairwiseProblem(
  metadata: { subject_types_supported?: string[] },
  identityClaim: string | undefined,
): string | undefined {
  const types = metadata.subject_types_supported;
  if (identityClaim !== undefined || types === undefined || types.includes('public')) return undefined;
  return 'the issuer gives pairwise subjects, which name a person differently to each application: set ANSWER_IDENTITY_CLAIM (oid, say) so a person is known alike at the page and on /mcp';
}

/**
 * The answerer a sign-in names. Keyed by issuer and subject, or by `identityClaim` when the
 * deployment knows people by a claim (person-key.ts); a sign-in without it is refused, since the
 * person could not be told from the caller of a question that excludes the caller.
 */
export function answererFromClaims(
  issuer: string,
  claims: Claims,
  groupsClaim: string,
  identityClaim?: string,
): AnswererIdentity {
  const { name, email } = displayClaimsOf(claims);
  const person = identityClaim !== undefined ? personKeyOf(claims, identityClaim) : undefined;
  if (person !== undefined && 'unmatched' in person)
    throw new SignInRefused(person.unmatched.replace('the token', 'the sign-in'));
  return {
    id: person?.key ?? principalId(issuer, claims.sub, undefined),
    kind: 'person',
    issuer,
    subject: claims.sub,
    // A sign-in grants no API scopes: a question addressed to a scope is for bearer tokens.
    scopes: [],
    groups: groupsOf(claims[groupsClaim]),
    ...(name !== undefined ? { name } : {}),
    ...(email !== undefined ? { email } : {}),
  };
}
