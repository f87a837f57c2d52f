/**
 * Who an exchange belongs to: the caller a bearer token names (its issuer, subject and client), or
 * one anonymous principal for every caller when the service runs without authorization
 * (AUTH_MODE=off). A principal's `id` is the stable key everything is bound to: sealed into each
 * requestState, stored on the exchange and the legacy session, the `McpPrincipal` search
 * attribute and the admin filter. It names the caller, never carries a credential.
 */
import { createHash } from 'node:crypto';
import type { Principal as HandlerPrincipal } from '@durable-mcp/handlers';
import type { PrincipalDetails } from './types';

/**
 * A caller: what a handler sees of it (`@durable-mcp/handlers`: its stable key `id`, see
 * `principalId`, and its details) and, when the deployment knows people by a claim
 * (ANSWER_IDENTITY_CLAIM), the key that claim gives its person, or why it gives none; and the
 * tenant its token names (TENANT_CLAIM). These go no further than the API's start leg
 * (`personIdOf`, `callerUnmatchedOf`, the quotas, the exchange's fairness key).
 */
export type Principal = HandlerPrincipal & {
  person?: PersonKey;
  /** The tenant its token names (TENANT_CLAIM), for the quotas per tenant and the fairness key: never recorded. */
  tenant?: string;
};

/** The key of a person known by a claim (lib/auth/person-key.ts `personKeyOf`), or why the claims give none. */
export type PersonKey = { key: string } | { unmatched: string };

export const ANONYMOUS_PRINCIPAL_ID = 'anonymous';

/** The one principal of a service that authenticates nobody. */
export const ANONYMOUS_PRINCIPAL: Principal = Object.freeze({
  id: ANONYMOUS_PRINCIPAL_ID,
  subject: ANONYMOUS_PRINCIPAL_ID,
  scopes: [],
}) as Principal;

/**
 * Longest key there is: what a Keyword search attribute holds on SQL visibility (its columns are
 * VARCHAR(255)). A longer one (a huge subject) is keyed by its digest instead.
 */
export const MAX_PRINCIPAL_ID_LENGTH = 255;

/**
 * The stable key of a caller. Subject and client are percent-encoded, so `|` inside them cannot
 * make two callers one; the client is left out when it is the subject. A token that names no
 * subject (a client-credentials token, say) is keyed by its client under a `client:` prefix
 * (`:` in an encoded subject is `%3A`), so a client can never share a key with a user whose `sub`
 * is the same string. A key longer than `MAX_PRINCIPAL_ID_LENGTH` is its SHA-256 instead, after
 * its issuer when that fits.
 */
export function principalId(
  issuer: string,
  subject: string,
  clientId: string | undefined,
  subjectIsClient = false,
): string {
  const client = clientId !== undefined && clientId !== subject ? `|${encodeURIComponent(clientId)}` : '';
  const id = subjectIsClient
    ? `${issuer}|client:${encodeURIComponent(subject)}`
    : `${issuer}|${encodeURIComponent(subject)}${client}`;
  if (id.length <= MAX_PRINCIPAL_ID_LENGTH) return id;
  const digest = `sha256:${createHash('sha256').update(id).digest('hex')}`;
  return issuer.length + 1 + digest.length <= MAX_PRINCIPAL_ID_LENGTH ? `${issuer}|${digest}` : digest;
}

/** A principal as a handler sees it, from what an exchange recorded (an exchange from before principals had details has only its id). */
export function principalOf(id: string, details?: PrincipalDetails): Principal {
  return details ? { id, ...details } : { id, subject: id, scopes: [] };
}

/** What an exchange keeps of a principal besides its key. */
export function detailsOf(principal: Principal): PrincipalDetails {
  const { id: _id, person: _person, tenant: _tenant, ...details } = principal;
  return details;
}

/**
 * The key of the person (or service) behind a caller, as a sign-in of theirs at the answer page
 * or a token of theirs at the answer API is keyed (lib/auth/answerer-claims.ts), so the rules of a
 * question (who is the caller, who answered already) are about people and services, never about
 * the client a token was given to. A person is `principalId(issuer, subject)`; a service is keyed
 * by its client under the `client:` prefix whether or not its token names a `sub`, so a client id
 * never matches a person's subject. A caller without an issuer is its own key.
 */
export function personIdOf(
  principal: Pick<Principal, 'id' | 'kind' | 'issuer' | 'subject' | 'clientId' | 'person'>,
): string {
  const { id, kind, issuer, subject, clientId, person } = principal;
  if (issuer === undefined) return id;
  if (kind === 'service') return principalId(issuer, clientId ?? subject, undefined, true);
  if (person !== undefined && 'key' in person) return person.key;
  if (id === principalId(issuer, subject, clientId, true)) return id;
  return principalId(issuer, subject, undefined);
}

/** Why a caller's person cannot be matched with a person signed in at the page, if it cannot (`personKeyOf`). */
export const callerUnmatchedOf = (principal: Pick<Principal, 'kind' | 'person'>): string | undefined =>
  principal.kind !== 'service' && principal.person !== undefined && 'unmatched' in principal.person
    ? principal.person.unmatched
    : undefined;
