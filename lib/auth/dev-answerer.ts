/**
 * Who someone becomes at the development sign-in (ANSWER_DEV_SIGN_IN): the subject, display name
 * and groups they typed, as the identity an OpenID Connect sign-in would have made of the same
 * claims (answerer-claims.ts), under one fixed issuer of its own, so a development answerer never
 * shares a key with a real one. The subject `anonymous` is the AUTH_MODE=off caller itself (key
 * `anonymous`, no issuer), so a developer can answer a question addressed to the caller. Fields
 * are bounded as a real sign-in's claims are, but refused rather than cut, since the person
 * typing can fix them. How they signed in is typed too (`acr`, `amr`; `auth_time` is the moment
 * of the sign-in), so a question that requires a sign-in (`requireSignIn`) can be answered in
 * development. Pure, and unit-tested beside it.
 */
import { ANONYMOUS_PRINCIPAL_ID, principalId } from '../exchange/principal';
import type { AnswererIdentity } from '../questions/question';
import { MAX_GROUP_LENGTH, MAX_GROUPS, MAX_NAME_LENGTH } from './answerer-claims';
import type { SignInAuthentication } from '../questions/step-up';

/** The issuer of every development answerer but the anonymous one: not a URL, so never a real issuer's. */
export const DEV_SIGN_IN_ISSUER = 'urn:durable-mcp:dev-sign-in';
/** The longest subject taken: a display name's bound (a longer key would be a digest, unreadable in audits). */
export const MAX_DEV_SUBJECT_LENGTH = MAX_NAME_LENGTH;

export type DevSignInField = 'subject' | 'name' | 'groups' | 'acr' | 'amr';

export interface DevSignInProblem {
  field: DevSignInField;
  message: string;
}

/** The form as posted: each field a string, or absent (anything else is treated as absent). */
export type DevSignInFields = Partial<Record<DevSignInField, unknown>>;

// Control characters would forge lines in logs and audits, and no issuer puts them in a claim.
const CONTROL = /[\x00-\x1f\x7f]/;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The groups typed, comma-separated: trimmed, empty ones dropped, each once, in the order typed. */
export const typedGroups = (raw: unknown): string[] => [
  ...new Set(
    text(raw)
      .split(',')
      .map((group) => group.trim())
      .filter(Boolean),
  ),
];

function groupsProblem(groups: string[]): string | undefined {
  if (groups.length > MAX_GROUPS) return `At most ${MAX_GROUPS} groups.`;
  if (groups.some((group) => group.length > MAX_GROUP_LENGTH))
    return `A group is at most ${MAX_GROUP_LENGTH} characters.`;
  if (groups.some((group) => CONTROL.test(group))) return 'A group cannot hold control characters.';
  return undefined;
}

/** At most this many methods typed, each at most this long (as an ID token's `amr` is read: step-up.ts). */
const MAX_DEV_METHODS = 32;
const MAX_DEV_METHOD_LENGTH = 64;
const MAX_DEV_ACR_LENGTH = 256;

/**
 * How the form says the person signed in: the `acr` and the methods (`amr`, comma-separated)
 * typed, signed in at `nowMs`; or what is wrong with them.
 */
export function devAuthentication(
  fields: DevSignInFields,
  nowMs: number,
): { authentication: SignInAuthentication } | { problems: DevSignInProblem[] } {
  const acr = text(fields.acr);
  const amr = typedGroups(fields.amr);
  const problems: DevSignInProblem[] = [];
  if (acr.length > MAX_DEV_ACR_LENGTH)
    problems.push({ field: 'acr', message: `At most ${MAX_DEV_ACR_LENGTH} characters.` });
  else if (CONTROL.test(acr)) problems.push({ field: 'acr', message: 'No control characters.' });
  if (amr.length > MAX_DEV_METHODS) problems.push({ field: 'amr', message: `At most ${MAX_DEV_METHODS} methods.` });
  else if (amr.some((method) => method.length > MAX_DEV_METHOD_LENGTH || /[\s\x00-\x1f\x7f]/.test(method)))
    problems.push({ field: 'amr', message: `A method is one word of at most ${MAX_DEV_METHOD_LENGTH} characters.` });
  if (problems.length > 0) return { problems };
  return {
    authentication: {
      authTime: Math.floor(nowMs / 1000),
      ...(acr !== '' ? { acr } : {}),
      ...(amr.length > 0 ? { amr } : {}),
    },
  };
}

/** The identity the form names, or what is wrong with it, field by field. */
export function devAnswerer(
  fields: DevSignInFields,
): { identity: AnswererIdentity } | { problems: DevSignInProblem[] } {
  const subject = text(fields.subject);
  const name = text(fields.name);
  const groups = typedGroups(fields.groups);
  const problems: DevSignInProblem[] = [];
  if (subject === '') problems.push({ field: 'subject', message: 'Type who you are signing in as.' });
  else if (subject.length > MAX_DEV_SUBJECT_LENGTH)
    problems.push({ field: 'subject', message: `At most ${MAX_DEV_SUBJECT_LENGTH} characters.` });
  else if (CONTROL.test(subject)) problems.push({ field: 'subject', message: 'No control characters.' });
  if (name.length > MAX_NAME_LENGTH)
    problems.push({ field: 'name', message: `At most ${MAX_NAME_LENGTH} characters.` });
  else if (CONTROL.test(name)) problems.push({ field: 'name', message: 'No control characters.' });
  const groupsWrong = groupsProblem(groups);
  if (groupsWrong !== undefined) problems.push({ field: 'groups', message: groupsWrong });
  if (problems.length > 0) return { problems };

  const anonymous = subject === ANONYMOUS_PRINCIPAL_ID;
  return {
    identity: {
      id: anonymous ? ANONYMOUS_PRINCIPAL_ID : principalId(DEV_SIGN_IN_ISSUER, subject, undefined),
      kind: 'person',
      ...(anonymous ? {} : { issuer: DEV_SIGN_IN_ISSUER }),
      subject,
      // As at a real sign-in: a person gets no API scopes; a question addressed to a scope is for bearer tokens.
      scopes: [],
      groups,
      ...(name !== '' ? { name } : {}),
    },
  };
}
