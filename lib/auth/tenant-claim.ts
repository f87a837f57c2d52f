/**
 * The tenant a caller belongs to, for the quotas counted per tenant: the value of the access-token
 * claim TENANT_CLAIM names (`tid` at Entra ID, `org_id` at Auth0, say), keyed under the
 * token's issuer, so two issuers that happen to spell a tenant alike never share its quota. A
 * token without the claim (or with an empty or non-scalar one) names no tenant. Pure, and
 * unit-tested beside it.
 */
import { principalId } from '../exchange/principal';

export function tenantOf(claims: Record<string, unknown>, tenantClaim: string, issuer: string): string | undefined {
  const raw = claims[tenantClaim];
  const value = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof value !== 'string' || value.trim().length === 0) return undefined;
  // The principal key's encoding: bounded (a long value becomes its digest), and `|` cannot merge two.
  return principalId(issuer, value.trim(), undefined);
}
