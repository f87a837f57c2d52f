/**
 * The logger for one call's lines: bound to its exchange, the exchange's workflow id and, when the
 * line is about one round, that round.
 */
import { exchangeLogger, type Logger } from '../../../../lib/log';
import { workflowIdFor } from '../../../../lib/exchange-client/workflow-messages';

export function callLogger(log: Logger, exchangeId: string, round?: number): Logger {
  return exchangeLogger(log, {
    exchangeId,
    workflowId: workflowIdFor(exchangeId),
    ...(round !== undefined ? { round } : {}),
  });
}
