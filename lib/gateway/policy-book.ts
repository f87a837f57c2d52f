/**
 * Every upstream's policies as the process holds them now: read from the declarations at start,
 * replaced whole when `UPSTREAMS_FILE` is read again (policy-reload.ts). A round reads them when it
 * decides, so a reload applies from the next call's first round on.
 */
import type { CallPolicy } from '../upstreams/call-policy';
import type { Upstream } from '../upstreams/upstream-declaration';

export interface PolicyBook {
  of(upstream: string): readonly CallPolicy[];
  replace(upstreams: readonly Pick<Upstream, 'name' | 'policies'>[]): void;
}

export function createPolicyBook(upstreams: readonly Pick<Upstream, 'name' | 'policies'>[]): PolicyBook {
  let byName = new Map(upstreams.map((upstream) => [upstream.name, upstream.policies]));
  return {
    of: (upstream) => byName.get(upstream) ?? [],
    replace(next) {
      byName = new Map(next.map((upstream) => [upstream.name, upstream.policies]));
    },
  };
}
