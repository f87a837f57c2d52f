/**
 * Step-up at the answer page: whether a session's sign-in satisfies what a question may require
 * of the person answering it (its addressing's `requireSignIn`), and what to ask the issuer for
 * when it does not. A requirement names any of: a sign-in no older than `maxAgeS` seconds (OpenID
 * Connect `max_age`, checked against the ID token's `auth_time`), an authentication context among
 * `acr` (asked as `acr_values`, checked against `acr`), and authentication methods that must all
 * have been used (`amr`, such as `mfa` or `otp`; issuers have no standard request parameter for
 * them, so, unless `acr` values ask for them, the person is asked to authenticate again with
 * `prompt=login`, and they are always checked). What the session knows comes from the ID token it
 * was minted from; what it does not know (an issuer that sent no `auth_time`, say) does not
 * satisfy a requirement that needs it. Pure (no imports: the workflow bundle reaches it through
 * lib/questions/addressing.ts), and unit-tested beside it.
 */

/** What a question requires of its answerer's sign-in (`@durable-mcp/handlers` `SignInRequirement`). */
export interface AuthenticationRequirement {
  /** The sign-in must be at most this many seconds old. */
  maxAgeS?: number;
  /** The sign-in's `acr` must be one of these (in the issuer's order of preference). */
  acr?: string[];
  /** Every one of these must be among the sign-in's `amr`. */
  amr?: string[];
}

/** How a session's person signed in, as the ID token said. */
export interface SignInAuthentication {
  /** `auth_time`: when the person authenticated at the issuer, epoch seconds. */
  authTime?: number;
  acr?: string;
  amr?: string[];
}

/** Why a sign-in does not satisfy a requirement. */
export type UnmetRequirement = 'max-age' | 'acr' | 'amr';

/** Issuers' clocks may differ from ours this much. */
const CLOCK_SKEW_S = 60;

/** The first thing `requirement` asks that `authentication` (at `nowMs`) does not give, or undefined when it is met. */
export function unmetRequirement(
  authentication: SignInAuthentication,
  requirement: AuthenticationRequirement,
  nowMs: number,
): UnmetRequirement | undefined {
  if (requirement.maxAgeS !== undefined) {
    const { authTime } = authentication;
    const nowS = Math.floor(nowMs / 1000);
    if (authTime === undefined || authTime > nowS + CLOCK_SKEW_S || nowS - authTime > requirement.maxAgeS)
      return 'max-age';
  }
  if (requirement.acr !== undefined && requirement.acr.length > 0) {
    const { acr } = authentication;
    if (acr === undefined || !requirement.acr.includes(acr)) return 'acr';
  }
  if (requirement.amr !== undefined && requirement.amr.length > 0) {
    const used = new Set(authentication.amr ?? []);
    if (!requirement.amr.every((method) => used.has(method))) return 'amr';
  }
  return undefined;
}

/** Whether a requirement asks anything at all (an absent or empty one is no requirement). */
export const requiresAnything = (requirement: AuthenticationRequirement | undefined): boolean =>
  requirement !== undefined &&
  (requirement.maxAgeS !== undefined || (requirement.acr?.length ?? 0) > 0 || (requirement.amr?.length ?? 0) > 0);

/**
 * The authorization request's parameters that ask the issuer for a sign-in meeting `requirement`.
 * Methods (`amr`) have no parameter of their own: without `acr` values to ask for them, the
 * person is made to authenticate again (`prompt=login`), so a session at the issuer that did not
 * use them is not simply handed back.
 */
export function stepUpParameters(requirement: AuthenticationRequirement): Record<string, string> {
  const acr = requirement.acr ?? [];
  return {
    ...(requirement.maxAgeS !== undefined ? { max_age: String(requirement.maxAgeS) } : {}),
    ...(acr.length > 0 ? { acr_values: acr.join(' ') } : {}),
    ...(acr.length === 0 && (requirement.amr?.length ?? 0) > 0 ? { prompt: 'login' } : {}),
  };
}

/** Plain words for a method of RFC 8176, or the method itself. */
const METHOD_WORDS: Readonly<Record<string, string>> = {
  mfa: 'multi-factor authentication (MFA)',
  otp: 'a one-time code',
  hwk: 'a hardware key',
  swk: 'a software key',
  sc: 'a smart card',
  fpt: 'a fingerprint',
  face: 'face recognition',
  pin: 'a PIN',
  pwd: 'a password',
  sms: 'a code by text message',
};

const durationWords = (seconds: number): string => {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'the last hour' : `the last ${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'the last minute' : `the last ${seconds / 60} minutes`;
  return `the last ${seconds} seconds`;
};

/**
 * What `requirement` asks, in words a person reads ("a sign-in within the last 5 minutes, using
 * multi-factor authentication (MFA)"), for the answer page and refusal messages.
 */
export function describeRequirement(requirement: AuthenticationRequirement): string {
  const parts = ['a sign-in'];
  if (requirement.maxAgeS !== undefined) parts.push(`within ${durationWords(requirement.maxAgeS)}`);
  const methods = (requirement.amr ?? []).map((method) => METHOD_WORDS[method] ?? `“${method}”`);
  if (methods.length > 0) parts.push(`using ${methods.join(' and ')}`);
  const acr = requirement.acr ?? [];
  if (acr.length > 0)
    parts.push(
      `${acr.length === 1 ? 'at the authentication level' : 'at one of the authentication levels'} ${acr.map((value) => `“${value}”`).join(', ')}`,
    );
  return parts.length === 1 ? parts[0]! : `${parts[0]} ${parts.slice(1).join(', ')}`;
}

/** What a sign-in lacks, in words: the unmet part of a requirement. */
export function describeUnmet(unmet: UnmetRequirement, requirement: AuthenticationRequirement): string {
  switch (unmet) {
    case 'max-age':
      return `your sign-in is not from within ${durationWords(requirement.maxAgeS ?? 0)}`;
    case 'acr':
      return 'your sign-in is not at the authentication level it needs';
    case 'amr':
      return `your sign-in did not use ${(requirement.amr ?? []).map((m) => METHOD_WORDS[m] ?? `“${m}”`).join(' and ')}`;
  }
}

/** How a sign-in authenticated, from an ID token's claims (anything malformed is left out, so it meets nothing). */
export function authenticationFromClaims(claims: Record<string, unknown>): SignInAuthentication {
  const { auth_time: authTime, acr, amr } = claims;
  return {
    ...(typeof authTime === 'number' && Number.isInteger(authTime) && authTime > 0 ? { authTime } : {}),
    ...(typeof acr === 'string' && acr.length > 0 && acr.length <= 256 ? { acr } : {}),
    ...(Array.isArray(amr) && amr.length <= 32 && amr.every((m) => typeof m === 'string' && m.length <= 64)
      ? { amr: amr as string[] }
      : {}),
  };
}
