/**
 * Every upstream's policies as the process holds them now: read from the declarations at start,
 * replaced whole when `UPSTREAMS_FILE` is read again (policy-reload.ts). A round reads them when it
 * decides, so a reload applies from the next call's first round on. Beside them, where a round
 * records what they decided (decision-record.ts): given by the process that runs rounds (the
 * worker's Postgres), once it has its pool.
 */
import type { CallPolicy } from '../upstreams/call-policy';
import type { Upstream } from '../upstreams/upstream-declaration';
import type { DecisionRecord } from './decision-record';

export interface PolicyBook {
  of(upstream: string): readonly CallPolicy[];
  replace(upstreams: readonly Pick<Upstream, 'name' | 'policies'>[]): void;
  /** Where rounds record their decisions; none in a process that runs no rounds. */
  readonly decisions: DecisionRecord | undefined;
  recordDecisionsIn(record: DecisionRecord): void;
}

export function createPolicyBook(upstreams: readonly Pick<Upstream, 'name' | 'policies'>[]): PolicyBook {
  let byName = new Map(upstreams.map((upstream) => [upstream.name, upstream.policies]));
  let decisions: DecisionRecord | undefined;
  return {
    get decisions() {
      return decisions;
    },
    recordDecisionsIn(record) {
      decisions = record;
    },
    of: (upstream) => byName.get(upstream) ?? [],
    replace(next) {
      byName = new Map(next.map((upstream) => [upstream.name, upstream.policies]));
    },
  };
}
