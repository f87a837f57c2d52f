/**
 * The round-input budget, one rule for every way answers arrive: what one round's activity carries
 * (the call's arguments, the round's answers, the client's capabilities) travels to the workflow
 * in one Temporal payload, which has a hard size limit, so it must stay under MAX_ROUND_INPUT_BYTES
 * or the round could never be scheduled. Sizes are the UTF-8 bytes of the JSON as it travels.
 *
 * Its callers refuse what is over the budget before anything reaches Temporal: a 2026-07-28 leg
 * and tasks/update (`roundInputTooLarge`), and a legacy response (each answers one key, so
 * the answers already taken for the round count: `roundAnswersBytes`).
 */
import { tooLarge } from '../protocol/error-catalog';
import type { RpcError } from '../protocol/rpc-error';

/** The UTF-8 bytes of a value's JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** One answer's bytes: an absent answer travels as null. */
export function answerBytes(value: unknown): number {
  return jsonBytes(value ?? null);
}

/** What a round's input is made of; a part that is absent does not travel and counts nothing. */
export interface RoundInput {
  params: unknown;
  answers: unknown;
  clientCapabilities: unknown;
}

/** The bytes of a round's input. */
export function roundInputBytes(input: RoundInput): number {
  const bytes = (value: unknown) => (value === undefined ? 0 : jsonBytes(value));
  return bytes(input.params) + bytes(input.answers) + bytes(input.clientCapabilities);
}

/**
 * The bytes of a round's answers if one more key's answer (`incoming`, for `key`) is taken: it
 * plus those already taken for the round's other keys.
 */
export function roundAnswersBytes(
  incoming: unknown,
  taken: ReadonlyArray<{ key: string; response: unknown }>,
  key: string,
): number {
  return taken
    .filter((answer) => answer.key !== key)
    .reduce((sum, answer) => sum + answerBytes(answer.response), answerBytes(incoming));
}

/** Whether `size` bytes are over the round-input budget `limit`. */
export function overRoundInputBudget(size: number, limit: number): boolean {
  return size > limit;
}

/** The refusal (-32602, path `params`) of a round whose input is over the budget, or undefined when it fits. */
export function roundInputTooLarge(input: RoundInput, limit: number): RpcError | undefined {
  const size = roundInputBytes(input);
  if (!overRoundInputBudget(size, limit)) return undefined;
  return tooLarge("this round's input (arguments, inputResponses and client capabilities)", 'params', limit, size);
}
