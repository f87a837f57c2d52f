/**
 * Duplicate answers, one rule for every process: a round takes the first answers that reach it, and
 * every later delivery to it is a repeat (delivery is at-least-once: a client retrying its leg, two
 * API replicas, a redelivery). Pure, with no import.
 *
 * - The workflow is the authority: `deliveryTo` says whether answers are due now, held for a round
 *   it has not seen ask yet, or a repeat it ignores (workflows/exchange-state.ts).
 * - The API's fast pre-check reads what Postgres recorded: once a round is answered (the next round
 *   is recorded), `repeatOf` says whether a leg's answers are the ones that answered it (the same
 *   outcome for it, a retry) or different ones (refused before anything is signalled). A legacy
 *   response to a request already answered is compared the same way, on its canonical JSON
 *   (services/api/src/legacy/response-intake.ts).
 */

/** Where a delivery to `round` stands, when answers to `expected` are taken next and `taken` says it has some. */
export type Delivery = 'due' | 'ahead' | 'repeat';

export function deliveryTo(round: number, expected: number, taken: boolean): Delivery {
  if (round < expected) return 'repeat';
  if (round > expected) return 'ahead';
  return taken ? 'repeat' : 'due';
}

/**
 * Whether answers digested `digest` repeat the ones that answered a round (`first`): the same, or
 * different. A side without a digest (an ending recorded without answers, an expiry or a cancel; a
 * leg that sent none) stands for every leg.
 */
export function repeatOf(first: string | undefined, digest: string | undefined): 'same' | 'different' {
  return digest !== undefined && first !== undefined && first !== digest ? 'different' : 'same';
}
