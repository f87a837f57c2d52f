/**
 * Step-up at the answer page: whether a session's sign-in satisfies what a question may require
 * of the person answering it, and what to ask the issuer for when it does not. A requirement names
 * any of: a sign-in no older than `maxAgeS` seconds (OpenID Connect `max_age`, checked against the
 * ID token's `auth_time`), an authentication context among `acrValues` (`acr_values`, checked
 * against `acr`), and authentication methods that must all have been used (`amr`, such as `mfa`
 * or `otp`; issuers have no standard request parameter for them, so they are asked through
 * `acr_values` when given, and always checked). What the session knows comes from the ID token it
 * was minted from; what it does not know (an issuer that sent no `auth_time`, say) does not
 * satisfy a requirement that needs it. Pure, and unit-tested beside it.
 */

/** What a question requires of its answerer's sign-in. */
export interface AuthenticationRequirement {
  /** The sign-in must be at most this many seconds old. */
  maxAgeS?: number;
  /** The sign-in's `acr` must be one of these (in the issuer's order of preference). */
  acrValues?: string[];
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
  if (requirement.acrValues !== undefined && requirement.acrValues.length > 0) {
    const { acr } = authentication;
    if (acr === undefined || !requirement.acrValues.includes(acr)) return 'acr';
  }
  if (requirement.amr !== undefined && requirement.amr.length > 0) {
    const used = new Set(authentication.amr ?? []);
    if (!requirement.amr.every((method) => used.has(method))) return 'amr';
  }
  return undefined;
}

/** The authorization request's parameters that ask the issuer for a sign-in meeting `requirement`. */
export function stepUpParameters(requirement: AuthenticationRequirement): Record<string, string> {
  return {
    ...(requirement.maxAgeS !== undefined ? { max_age: String(requirement.maxAgeS) } : {}),
    ...(requirement.acrValues !== undefined && requirement.acrValues.length > 0
      ? { acr_values: requirement.acrValues.join(' ') }
      : {}),
  };
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
