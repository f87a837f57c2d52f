/**
 * Who may answer an addressed question now, and when its answers decide it: the admission of an
 * answerer (its slot, or why not) and a question's decision, as pure functions the API, the
 * workflow and the test harness all apply (lib/questions/addressing.ts says who a question names).
 * No Temporal, pg or express import: the workflow bundle imports this file.
 */
import { addressesCaller, addresseesAt, answererNames, isCaller } from './addressing';
import { requiresAnything, unmetRequirement } from './step-up';
import type { Addressing, Answerer, AnswererIdentity, ElicitAnswer, QuestionCaller } from './question';

/** One answer a question took, with the slot of an `eachOf` it fills. */
export interface SlottedAnswer {
  slot: number;
  by: Pick<AnswererIdentity, 'id'>;
  response: ElicitAnswer;
}

export type AdmissionRefusal =
  | 'not-addressed'
  | 'caller-excluded'
  | 'already-answered'
  | 'closed'
  | 'client-token'
  | 'identity-unmatched'
  | 'step-up-required';

export type Admission = { admitted: true; slot: number } | { admitted: false; reason: AdmissionRefusal };

/**
 * Whether a client's token may give this answer: only the decline or cancel of a question its own
 * call sent it in URL mode (addressed to the caller), never an accept, never anyone else's question.
 */
const clientMayAnswer = (
  addressing: Addressing,
  identity: AnswererIdentity,
  caller: QuestionCaller,
  action: ElicitAnswer['action'] | undefined,
): boolean => action !== undefined && action !== 'accept' && addressesCaller(addressing) && isCaller(identity, caller);

/**
 * Whether `identity`'s sign-in meets the question's `requireSignIn` at `at`: always, when it asks
 * nothing (a question recorded before it existed included); a person's, when their ID token's
 * `auth_time`, `acr` and `amr` do (lib/questions/step-up.ts); a service's never, as it is no person
 * present. A caller's client reaches this only to decline or cancel its own call's URL-mode
 * question, which approves nothing: it is not held to the requirement.
 */
export function meetsSignInRequirement(addressing: Addressing, identity: AnswererIdentity, at: number): boolean {
  const requirement = addressing.requireSignIn;
  if (!requiresAnything(requirement) || identity.kind === 'client') return true;
  if (identity.kind === 'service') return false;
  return unmetRequirement(identity, requirement!, at) === undefined;
}

/**
 * Whether `identity` may answer now (`at`), given what the question took so far. An `anyOf` has
 * one slot; an `eachOf` one per answerer, each filled by the first admitted principal that has not
 * filled another; an escalation's answerers may fill any open slot. One who would be admitted but
 * whose sign-in falls short of the question's `requireSignIn` is refused `step-up-required` (only
 * then, so nobody else learns what it requires).
 */
export function admission(
  addressing: Addressing,
  identity: AnswererIdentity,
  context: {
    caller: QuestionCaller;
    askedAt: number;
    at: number;
    taken: SlottedAnswer[];
    /** The answer's action: a client's token may only decline or cancel (`clientMayAnswer`). */
    action?: ElicitAnswer['action'];
  },
): Admission {
  if (decisionOf(addressing, context.taken)) return { admitted: false, reason: 'closed' };
  if (identity.kind === 'client' && !clientMayAnswer(addressing, identity, context.caller, context.action))
    return { admitted: false, reason: 'client-token' };
  // Who is the caller cannot be told: separation of duties fails closed.
  if (addressing.excludeCaller && context.caller.unmatched !== undefined)
    return { admitted: false, reason: 'identity-unmatched' };
  if (addressing.excludeCaller && isCaller(identity, context.caller))
    return { admitted: false, reason: 'caller-excluded' };
  const names = (answerer: Answerer) => answererNames(answerer, identity, context.caller);
  if (context.taken.some((answer) => answer.by.id === identity.id))
    return { admitted: false, reason: 'already-answered' };
  const filled = new Set(context.taken.map((answer) => answer.slot));
  const notAdmitted: Admission = {
    admitted: false,
    reason:
      context.caller.unmatched !== undefined &&
      addresseesAt(addressing, context.askedAt, context.at).some((a) => 'caller' in a)
        ? 'identity-unmatched'
        : 'not-addressed',
  };
  const slot = admittedSlot(addressing, context.askedAt, context.at, filled, names);
  if (slot === undefined) return notAdmitted;
  if (!meetsSignInRequirement(addressing, identity, context.at)) return { admitted: false, reason: 'step-up-required' };
  return { admitted: true, slot };
}

/** The slot an answerer `names` admits may fill at `at`, if any (`admission`). */
function admittedSlot(
  addressing: Addressing,
  askedAt: number,
  at: number,
  filled: ReadonlySet<number>,
  names: (answerer: Answerer) => boolean,
): number | undefined {
  if (!addressing.eachOf) return addresseesAt(addressing, askedAt, at).some(names) ? 0 : undefined;
  const open = addressing.eachOf.map((_, slot) => slot).filter((slot) => !filled.has(slot));
  const own = open.find((slot) => names(addressing.eachOf![slot]!));
  if (own !== undefined) return own;
  const escalated = addresseesAt(addressing, askedAt, at).slice(addressing.eachOf.length);
  return open.length > 0 && escalated.some(names) ? open[0] : undefined;
}

/**
 * The answer that decides a question, once one does: an `anyOf`'s first; an `eachOf`'s first
 * decline or cancel, else its last accept once every slot is filled.
 */
export function decisionOf(addressing: Addressing, taken: SlottedAnswer[]): ElicitAnswer | undefined {
  if (!addressing.eachOf) return taken[0]?.response;
  const refusal = taken.find((answer) => answer.response.action !== 'accept');
  if (refusal) return refusal.response;
  const filled = new Set(taken.map((answer) => answer.slot));
  return addressing.eachOf.every((_, slot) => filled.has(slot)) ? taken.at(-1)?.response : undefined;
}
