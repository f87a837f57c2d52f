/**
 * Where the gateway's round records what its policies decided (policy-gate.ts), so that each such
 * decision is evidence (lib/evidence/gateway-decision-entry.ts) and is taken once per exchange and
 * round: the first decision recorded stands, and a repeat of the round (an activity retried, a
 * worker that died before recording the round) acts on it instead of deciding again. Postgres in
 * the worker (lib/db/gateway-decisions-pg.ts); none where no round runs (an API-only process).
 */
import type { GatewayDecisionFacts } from '../evidence/gateway-decision-entry';

export interface DecisionRecord {
  /** The decision recorded for this exchange and round, if one is. */
  read(exchangeId: string, round: number): Promise<GatewayDecisionFacts | undefined>;
  /** Records `facts` unless a decision of its exchange and round is recorded; returns the one that stands. */
  record(facts: GatewayDecisionFacts): Promise<GatewayDecisionFacts>;
}
