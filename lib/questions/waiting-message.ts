/**
 * What the caller is told while its call waits on questions addressed to someone else: who it
 * waits for and until when, in one bounded line. The same words reach every era: a task's
 * `statusMessage`, a progress notification on a stream, the Temporal UI's details.
 */
import { clip } from '../exchange/ask-description';
import { addressedKeys, addressingOf, firstAddressees } from './addressing';
import { humanTime } from './human-time';
import type { Answerer } from './question';

/** The longest a waiting message gets. */
export const MAX_WAITING_MESSAGE = 200;

function describeAnswerer(answerer: Answerer, callerPage: string | undefined): string {
  if ('caller' in answerer) return callerPage !== undefined ? `you, at ${callerPage}` : 'you, on the answer page';
  if ('scope' in answerer) return `a holder of ${answerer.scope}`;
  if ('group' in answerer) return `a member of ${answerer.group}`;
  if ('service' in answerer) return `the service ${answerer.service}`;
  return answerer.subject;
}

/**
 * "Waiting for an answer from manager-7 or a member of finance (until 2026-12-03 10:00:00 UTC)".
 * `callerPage`: the page of the ask's question for the caller, when it has one and the page is on
 * (caller-url.ts `callerPageOf`), so a caller whose client takes no URL mode can still find it.
 */
export function waitingMessage(
  inputRequests: Record<string, unknown>,
  deadlineAt: number | undefined,
  callerPage?: string,
): string {
  const who = addressedKeys(inputRequests).map((key) => {
    const addressing = addressingOf(inputRequests[key])!;
    const names = firstAddressees(addressing).map((answerer) => describeAnswerer(answerer, callerPage));
    return addressing.eachOf ? `each of ${names.join(' and ')}` : names.join(' or ');
  });
  const until = deadlineAt !== undefined ? ` (until ${humanTime(deadlineAt)})` : '';
  return clip(`Waiting for an answer from ${who.join('; ')}${until}`, MAX_WAITING_MESSAGE);
}
