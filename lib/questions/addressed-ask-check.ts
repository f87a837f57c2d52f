/**
 * What a handler may address to someone, checked when its ask is recorded: a handler's mistake in
 * an addressing ends its exchange with a clear error (`-32603`, the reason in the message) instead
 * of a question nobody can answer. Pure; the round rules (activities/round-rules.ts) apply it.
 */
import { addressedKeys, addressingOf, isAddressedAsk, MAX_ANSWERER_STRING, MAX_ANSWERERS } from './addressing';
import type { Addressing, Answerer } from './question';
import { checkRequestedSchema } from './requested-schema';

const isText = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_ANSWERER_STRING;

function answererProblem(answerer: unknown, path: string): string | undefined {
  if (typeof answerer !== 'object' || answerer === null) return `${path} must be an answerer`;
  const a = answerer as Record<string, unknown>;
  const shape = Object.keys(a).sort().join(',');
  if (shape === 'issuer,subject') return isText(a.issuer) && isText(a.subject) ? undefined : `${path}: ${texts}`;
  if (shape === 'service' || shape === 'issuer,service')
    return isText(a.service) && (a.issuer === undefined || isText(a.issuer)) ? undefined : `${path}: ${texts}`;
  if (shape === 'scope') return isText(a.scope) ? undefined : `${path}.scope: ${texts}`;
  if (shape === 'group') return isText(a.group) ? undefined : `${path}.group: ${texts}`;
  if (shape === 'caller') return a.caller === true ? undefined : `${path}.caller must be true`;
  return `${path} must be one of { issuer, subject }, { service }, { scope }, { group } or { caller: true }`;
}
const texts = `strings of 1 to ${MAX_ANSWERER_STRING} characters`;

function listProblem(list: unknown, path: string): string | undefined {
  if (!Array.isArray(list) || list.length === 0) return `${path} must list at least one answerer`;
  if (list.length > MAX_ANSWERERS) return `${path} lists more than ${MAX_ANSWERERS} answerers`;
  for (const [index, answerer] of list.entries()) {
    const problem = answererProblem(answerer as Answerer, `${path}[${index}]`);
    if (problem) return problem;
  }
  return undefined;
}

const positive = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value > 0;

/** A `requireSignIn.maxAgeS` below this leaves no time to read and answer; above it, a day's sign-in is no step-up. */
export const MIN_SIGN_IN_MAX_AGE_S = 60;
export const MAX_SIGN_IN_MAX_AGE_S = 86_400;
/** At most this many `acr` or `amr` values, each at most this long (as an ID token's are read: step-up.ts). */
const MAX_SIGN_IN_VALUES = 10;
const MAX_SIGN_IN_VALUE = 64;

function signInValuesProblem(values: unknown, path: string): string | undefined {
  if (values === undefined) return undefined;
  if (
    !Array.isArray(values) ||
    values.length === 0 ||
    values.length > MAX_SIGN_IN_VALUES ||
    !values.every((v) => typeof v === 'string' && v.length > 0 && v.length <= MAX_SIGN_IN_VALUE && !/\s/.test(v))
  )
    return `${path} must list 1 to ${MAX_SIGN_IN_VALUES} values, each 1 to ${MAX_SIGN_IN_VALUE} characters without spaces`;
  return undefined;
}

/** What is wrong with a `requireSignIn` (lib/questions/step-up.ts reads it), if anything. */
function signInRequirementProblem(requirement: unknown, path: string): string | undefined {
  if (typeof requirement !== 'object' || requirement === null || Array.isArray(requirement))
    return `${path} must be an object of maxAgeS, acr and amr`;
  const r = requirement as Record<string, unknown>;
  const unknown = Object.keys(r).find((key) => !['maxAgeS', 'acr', 'amr'].includes(key));
  if (unknown !== undefined) return `${path}.${unknown} is not a sign-in requirement (maxAgeS, acr, amr)`;
  if (r.maxAgeS === undefined && r.acr === undefined && r.amr === undefined)
    return `${path} must require at least one of maxAgeS, acr and amr`;
  if (
    r.maxAgeS !== undefined &&
    !(
      positive(r.maxAgeS) &&
      (r.maxAgeS as number) >= MIN_SIGN_IN_MAX_AGE_S &&
      (r.maxAgeS as number) <= MAX_SIGN_IN_MAX_AGE_S
    )
  )
    return `${path}.maxAgeS must be a whole number of seconds from ${MIN_SIGN_IN_MAX_AGE_S} to ${MAX_SIGN_IN_MAX_AGE_S}`;
  return signInValuesProblem(r.acr, `${path}.acr`) ?? signInValuesProblem(r.amr, `${path}.amr`);
}

function addressingProblem(addressing: Addressing, path: string, waitMs: number): string | undefined {
  if ((addressing.anyOf === undefined) === (addressing.eachOf === undefined))
    return `${path} must have exactly one of anyOf and eachOf`;
  const list = addressing.anyOf ? 'anyOf' : 'eachOf';
  const listed = listProblem(addressing[list], `${path}.${list}`);
  if (listed) return listed;
  if (addressing.excludeCaller !== undefined && typeof addressing.excludeCaller !== 'boolean')
    return `${path}.excludeCaller must be a boolean`;
  if (addressing.excludeCaller && addressing[list]!.some((a) => 'caller' in a))
    return `${path} addresses the caller and excludes the caller`;
  if (addressing.waitMs !== undefined && !positive(addressing.waitMs))
    return `${path}.waitMs must be a positive whole number of milliseconds`;
  if (addressing.onExpiry !== undefined && !EXPIRY_CHOICES.includes(addressing.onExpiry))
    return `${path}.onExpiry must be one of ${EXPIRY_CHOICES.map((c) => `'${c}'`).join(', ')}`;
  if (
    addressing.remindAfterMs !== undefined &&
    !(positive(addressing.remindAfterMs) && addressing.remindAfterMs < waitMs)
  )
    return `${path}.remindAfterMs must be positive and within the question's wait (${waitMs} ms)`;
  if (addressing.requireSignIn !== undefined) {
    const problem = signInRequirementProblem(addressing.requireSignIn, `${path}.requireSignIn`);
    if (problem) return problem;
    // A sign-in is a person's: addressed to services and scope holders alone, nobody could meet it.
    const everyone = [...addressing[list]!, ...(addressing.escalate?.to ?? [])];
    if (everyone.every((a) => typeof a === 'object' && a !== null && ('service' in a || 'scope' in a)))
      return `${path}.requireSignIn asks a person's sign-in, and only services or scope holders are addressed: nobody could answer`;
  }
  const escalate = addressing.escalate;
  if (escalate === undefined) return undefined;
  if (!(positive(escalate.afterMs) && escalate.afterMs < waitMs))
    return `${path}.escalate.afterMs must be positive and within the question's wait (${waitMs} ms)`;
  if (Array.isArray(escalate.to) && escalate.to.some((a) => typeof a === 'object' && a !== null && 'caller' in a))
    return `${path}.escalate.to: the caller is asked from the start, never escalated to`;
  return listProblem(escalate.to, `${path}.escalate.to`);
}

function requestProblem(request: Record<string, unknown>, path: string): string | undefined {
  if (request.method !== 'elicitation/create') return `${path}: only an elicitation can be addressed to someone`;
  const params = request.params as Record<string, unknown> | undefined;
  if (params?.mode !== undefined && params.mode !== 'form')
    return `${path}: an addressed elicitation is a form (send the caller to a page of your own with inputRequired.elicitUrl, in a round of its own)`;
  if (typeof params?.message !== 'string') return `${path}.params.message must be a string`;
  const problem = checkRequestedSchema(params.requestedSchema)[0];
  return problem ? `${path}.params.${problem.path}: ${problem.message}` : undefined;
}

const EXPIRY_CHOICES: ReadonlyArray<unknown> = ['end', 'handler'];

/**
 * Why an ask cannot be recorded as addressed questions, if it cannot: it mixes questions for the
 * caller with addressed ones, or an addressing is malformed. `waitMs` is each question's wait, as
 * `questionWaitMs` gives it.
 */
export function addressedAskProblem(
  inputRequests: Record<string, unknown>,
  waitMsOf: (addressing: Addressing) => number,
): string | undefined {
  if (!isAddressedAsk(inputRequests)) return undefined;
  for (const [key, request] of Object.entries(inputRequests)) {
    const path = `inputRequests.${key}`;
    const addressing = addressingOf(request);
    if (!addressing)
      return `${path} asks the caller in an ask addressed to someone else: ask the caller in a round of its own`;
    const problem =
      requestProblem(request as Record<string, unknown>, path) ??
      addressingProblem(addressing, `${path}.addressedTo`, waitMsOf(addressing));
    if (problem) return problem;
  }
  // One wait ends the whole ask (its longest question's), so one choice says what that ending does.
  const choices = new Set(
    addressedKeys(inputRequests).map((key) => addressingOf(inputRequests[key])!.onExpiry ?? 'end'),
  );
  if (choices.size > 1)
    return `inputRequests: every addressed question of one ask must have the same addressedTo.onExpiry (one wait ends them all)`;
  return undefined;
}
