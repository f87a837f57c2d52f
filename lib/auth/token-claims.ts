/**
 * What a verified access token says, mapped one way for both kinds of token: a JWT's claims
 * (RFC 9068) and an introspection answer (RFC 7662) become the SDK's `AuthInfo`, and `AuthInfo`
 * becomes the caller's `Principal`. Issuers spell the same things differently (`scope` as a
 * string or `scp` as a list; the client as `client_id` or `azp`), so this is the one place that
 * knows. Pure, and unit-tested beside it; the signature, issuer and audience were checked before.
 */
import { groupsOf } from './answerer-claims';
import { isDexClientSubject } from './dex-subject';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { principalId, type Principal } from '../exchange/principal';
import { REFUSAL, TokenRefused } from './token-refusal';
import { personKeyOf, type PersonKey } from './person-key';
import { displayClaimsOf } from './display-claims';
import { tenantOf } from './tenant-claim';

/** The claims this mapping reads, from a JWT payload or an introspection response. */
export interface TokenClaims {
  iss?: unknown;
  sub?: unknown;
  aud?: unknown;
  exp?: unknown;
  scope?: unknown;
  scp?: unknown;
  client_id?: unknown;
  azp?: unknown;
  /** Display only (display-claims.ts): shown beside the subject, never compared. */
  name?: unknown;
  email?: unknown;
  email_verified?: unknown;
}

/** What `AuthInfo.extra` carries for the principal (never the token again). */
interface PrincipalExtra {
  issuer: string;
  subject: string;
  /** The client the token names, if it names one (`AuthInfo.clientId` falls back to the subject). */
  client?: string;
  /** The token names no `sub`: the subject is its client (keyed apart from users, principalId). */
  subjectIsClient?: true;
  /** A service acting as itself (`serviceTokenOf`), not a person. */
  service?: true;
  /** A person's key by the deployment's identity claim, or why there is none (person-key.ts). */
  person?: PersonKey;
  /** The groups its groups claim names (ANSWER_GROUPS_CLAIM), when it names any: what a question addressed to a group admits at the answer API. */
  groups?: string[];
  /** Its holder's display name and verified email (display-claims.ts), for people to read beside the subject. */
  name?: string;
  email?: string;
  /** The tenant its TENANT_CLAIM names (tenant-claim.ts), for the quotas per tenant and the fairness key. */
  tenant?: string;
}

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/** Scopes from `scope` (space-separated, RFC 8693/9068) or `scp` (a list or a string, as some issuers send). */
export function scopesOf(claims: TokenClaims): string[] {
  const raw = claims.scope ?? claims.scp;
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(' ') : [];
  return [...new Set(items.filter((item): item is string => typeof item === 'string' && item.length > 0))];
}

/** The audiences a token names (`aud` is a string or a list). */
export function audiencesOf(claims: TokenClaims): string[] {
  const aud = claims.aud;
  return (Array.isArray(aud) ? aud : [aud]).filter((item): item is string => typeof item === 'string');
}

/** The forms of a resource URI an audience may take: with and without a trailing slash. */
export const audienceForms = (resource: string): string[] => [resource, `${resource}/`];

/** One claim that marks a service's own token (`OAUTH_SERVICE_CLAIMS`): present, or equal to `value`. */
export interface ServiceClaim {
  claim: string;
  value?: string;
}

/** How this deployment reads what is not the same at every issuer. */
export interface ClaimReading {
  /** The claim naming the holder's groups (ANSWER_GROUPS_CLAIM). */
  groupsClaim?: string;
  /** Claims that mark a service's own token at issuers whose client-credentials tokens carry a `sub` of their own. */
  serviceClaims?: readonly ServiceClaim[];
  /** The claim people are known by across /mcp and the answer page (ANSWER_IDENTITY_CLAIM). */
  identityClaim?: string;
  /** The claim that names the holder's tenant (TENANT_CLAIM). */
  tenantClaim?: string;
}

/**
 * Whether a token is a service's own (a client-credentials grant) rather than a person's: it names
 * no `sub`, or its `sub` is its client (as most issuers write client-credentials tokens; Dex in
 * its own encoding), or it carries one of the deployment's service claims (`idtyp: app` at Entra
 * ID, `gty: client-credentials` at Auth0). Anything else names a person, and is held by whatever
 * client they gave it to.
 */
export function serviceTokenOf(claims: TokenClaims, serviceClaims: readonly ServiceClaim[] = []): boolean {
  const sub = nonEmpty(claims.sub);
  if (sub === undefined) return true;
  if (sub === nonEmpty(claims.client_id) || sub === nonEmpty(claims.azp)) return true;
  // Dex encodes even a client's own subject (dex-subject.ts), and names the client in `azp` only.
  const azp = nonEmpty(claims.azp);
  if (azp !== undefined && isDexClientSubject(sub, azp)) return true;
  const all = claims as Record<string, unknown>;
  return serviceClaims.some(({ claim, value }) =>
    value === undefined ? all[claim] !== undefined : String(all[claim] ?? '') === value,
  );
}

/**
 * `AuthInfo` for a token whose signature (or introspection), issuer and audience were verified.
 * `resources` are the resource URIs this request accepts, first the canonical one: `resource` is
 * the one the token names. A token that names no subject and no client cannot be a principal.
 */
export function authInfoFromClaims(
  token: string,
  claims: TokenClaims,
  issuer: string,
  resources: readonly string[],
  reading: ClaimReading = {},
): AuthInfo {
  const { groupsClaim, tenantClaim } = reading;
  const clientId = nonEmpty(claims.client_id) ?? nonEmpty(claims.azp);
  const sub = nonEmpty(claims.sub);
  const subject = sub ?? clientId;
  if (subject === undefined) throw new TokenRefused(REFUSAL.invalid, 'no sub, client_id or azp');
  const service = serviceTokenOf(claims, reading.serviceClaims);
  const named = audiencesOf(claims);
  const resource = resources.find((r) => audienceForms(r).some((form) => named.includes(form)));
  const extra: PrincipalExtra = {
    issuer,
    subject,
    ...(clientId !== undefined ? { client: clientId } : {}),
    ...(sub === undefined ? { subjectIsClient: true as const } : {}),
    ...(service ? { service: true as const } : {}),
    ...(!service && reading.identityClaim !== undefined
      ? { person: personKeyOf(claims as Record<string, unknown>, reading.identityClaim) }
      : {}),
    ...groupsExtra(groupsClaim === undefined ? [] : groupsOf((claims as Record<string, unknown>)[groupsClaim])),
    ...displayClaimsOf(claims as Record<string, unknown>),
    ...tenantExtra(
      tenantClaim === undefined ? undefined : tenantOf(claims as Record<string, unknown>, tenantClaim, issuer),
    ),
  };
  return {
    token,
    clientId: clientId ?? subject,
    scopes: scopesOf(claims),
    ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
    ...(resource !== undefined ? { resource: new URL(resource) } : {}),
    extra: { ...extra },
  };
}

const groupsExtra = (groups: string[]) => (groups.length > 0 ? { groups } : {});
const tenantExtra = (tenant: string | undefined) => (tenant !== undefined ? { tenant } : {});

/** The groups an `AuthInfo`'s token names (from `authInfoFromClaims`), bounded as a sign-in's are. */
export const groupsFromAuthInfo = (info: AuthInfo): string[] => (info.extra as unknown as PrincipalExtra).groups ?? [];

/** The caller an `AuthInfo` (from `authInfoFromClaims`) names: what exchanges and sessions are bound to. */
export function principalFromAuthInfo(info: AuthInfo): Principal {
  const { issuer, subject, client, subjectIsClient, service, person, name, email, tenant } =
    info.extra as unknown as PrincipalExtra;
  return {
    id: principalId(issuer, subject, client, subjectIsClient === true),
    kind: service ? 'service' : 'person',
    subject,
    ...(client !== undefined ? { clientId: client } : {}),
    issuer,
    scopes: [...info.scopes],
    ...(name !== undefined ? { name } : {}),
    ...(email !== undefined ? { email } : {}),
    ...(person !== undefined ? { person } : {}),
    ...(tenant !== undefined ? { tenant } : {}),
  };
}
