/**
 * Delivers a retried answer again when its exchange's workflow says it does not have it.
 *
 * Which answers an exchange took is the workflow's to say, not the API's: a signal Temporal
 * recorded is durable, but a workflow may still have refused it (an older release dropped answers
 * that arrived before, in its replayed view, their round had asked). So when a client retries an
 * answer the API already signalled (a 2026-07-28 leg that comes back with the same inputResponses,
 * a tasks/update of a key recorded as answered) and its round is still waiting, the API asks the
 * workflow where that answer stands (the `answerStanding` query) and signals it again only when the
 * workflow says it is missing. History gains a signal only for an answer the workflow lacks; a
 * workflow that cannot be asked now (no worker) is left to apply what its history holds.
 *
 * The query can replay a whole history (a workflow out of the worker's cache), so each one is
 * counted first, per round in Postgres across replicas, and past MAX_REPEATED_ANSWERS a retry is
 * answered from what is recorded without asking: a client looping on a retry costs a row update.
 */
import type { Era } from '../exchange/types';
import { exchangeLogger, type Logger } from '../log';
import { apiMetrics } from '../metrics/api-metrics';
import { workflowIdFor } from './workflow-messages';
import type { ExchangeGateway } from './exchange-gateway';

export interface Redelivery {
  exchangeId: string;
  /** The round whose ask the answer answers. */
  round: number;
  /** One key of that ask (a task's answer), or the round's answers as a whole (an MRTR leg). */
  key?: string;
  /** Who retried it: a 2026-07-28 leg or tasks/update (`modern`), or a legacy response (`legacy`). */
  era: Era;
  /** Signals the answer again; false when the workflow has ended. */
  deliver: () => Promise<boolean>;
  /** Counts this check against the round's budget of them; false when it is spent. */
  countCheck: () => Promise<boolean>;
}

/** Signals the answer again if the workflow says it is missing; whether it did. */
export async function redeliverIfMissing(
  gateway: ExchangeGateway,
  log: Logger,
  redelivery: Redelivery,
): Promise<boolean> {
  const { exchangeId, round, key } = redelivery;
  if (!(await redelivery.countCheck())) {
    exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId), round }).info(
      { ...(key !== undefined ? { key } : {}) },
      'answer retried too often: answered from the record, the exchange not asked',
    );
    return false;
  }
  const standing = await gateway.answerStanding(exchangeId, round, key);
  if (standing !== 'missing') return false;
  const delivered = await redelivery.deliver();
  if (delivered) apiMetrics.answerRedelivered(redelivery.era);
  exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId), round }).warn(
    { ...(key !== undefined ? { key } : {}), delivered },
    'answers re-delivered: the exchange did not have them',
  );
  return delivered;
}
