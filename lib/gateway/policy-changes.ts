/**
 * What a reload changed in one upstream's policies, as its log line says it (policy-reload.ts):
 * the policies added and removed by name, those kept under their name whose declaration changed
 * (before and after, as declared, so an operator reads what a threshold or an addressing became),
 * and whether the order changed (the first policy that matches decides, so an order is a change).
 * A decision point's secret is read from the environment, never from the file: it is never said.
 */
import type { CallPolicy } from '../upstreams/call-policy';

/** A policy as its log line shows it: its declaration, without the secret read from the environment. */
export function declaredPolicy(policy: CallPolicy): Record<string, unknown> {
  if (!('decide' in policy)) return { ...policy };
  const { secret: _secret, ...decide } = policy.decide as typeof policy.decide & { secret?: string };
  return { ...policy, decide };
}

export interface PolicyChanges {
  added: Array<Record<string, unknown>>;
  removed: string[];
  changed: Array<{ name: string; before: Record<string, unknown>; after: Record<string, unknown> }>;
  reordered: boolean;
}

/**
 * The policies by name; a name declared again is told apart by its place among those of that name
 * (`refunds (2)`), since names need not be unique and each must be compared with its own.
 */
function byName(policies: readonly CallPolicy[]): Map<string, CallPolicy> {
  const named = new Map<string, CallPolicy>();
  const seen = new Map<string, number>();
  for (const policy of policies) {
    const nth = (seen.get(policy.name) ?? 0) + 1;
    seen.set(policy.name, nth);
    named.set(nth === 1 ? policy.name : `${policy.name} (${nth})`, policy);
  }
  return named;
}

/** The changes from `before` to `after`, or undefined when the policies are the same, in the same order. */
export function policyChanges(before: readonly CallPolicy[], after: readonly CallPolicy[]): PolicyChanges | undefined {
  if (JSON.stringify(before) === JSON.stringify(after)) return undefined;
  const was = byName(before);
  const now = byName(after);
  const changed: PolicyChanges['changed'] = [];
  for (const [name, policy] of now) {
    const old = was.get(name);
    if (old && JSON.stringify(old) !== JSON.stringify(policy))
      changed.push({ name, before: declaredPolicy(old), after: declaredPolicy(policy) });
  }
  const kept = (names: Iterable<string>, other: Map<string, CallPolicy>) => [...names].filter((n) => other.has(n));
  return {
    added: [...now].filter(([name]) => !was.has(name)).map(([, policy]) => declaredPolicy(policy)),
    removed: [...was.keys()].filter((name) => !now.has(name)),
    changed,
    reordered: kept(was.keys(), now).join('\n') !== kept(now.keys(), was).join('\n'),
  };
}
