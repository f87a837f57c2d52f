/**
 * What a pending call waits on, read now (lib/questions/pending-result.ts `pendingOn`): its last
 * recorded round, and whether the workflow already holds the answers to that round's ask. The
 * pending result of either era says it (past-patience.ts; legacy/pending-call.ts).
 */
import type { ExchangeStore } from '../../../../lib/db/exchange-store';
import type { ExchangeGateway } from '../../../../lib/exchange-client/exchange-gateway';
import { pendingOn, type PendingOn } from '../../../../lib/questions/pending-result';

export interface WaitingOnDeps {
  store: Pick<ExchangeStore, 'lastRound'>;
  gateway: Pick<ExchangeGateway, 'answerStanding'>;
}

/** `askWorkflow` false: from Postgres alone (a stopping process has no time for a query that may wait for a worker). */
export type WaitingOn = (exchangeId: string, askWorkflow?: boolean) => Promise<PendingOn>;

export function createWaitingOn(deps: WaitingOnDeps): WaitingOn {
  return async (exchangeId, askWorkflow = true) => {
    const last = await deps.store.lastRound(exchangeId);
    if (last?.outcome.kind !== 'ask' || !askWorkflow) return pendingOn(last);
    // A workflow that cannot say now is running a round (a local one holds its queries): answered.
    return pendingOn(last, (await deps.gateway.answerStanding(exchangeId, last.round)) !== 'missing');
  };
}
