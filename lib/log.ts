/**
 * Structured logging. One pino base logger per process, bound to the service name; every line
 * about an exchange comes from `exchangeLogger`, so it carries `exchangeId`, `workflowId` and
 * `round` under the same names everywhere. Answers, requestState and keys are never logged.
 */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['requestState', '*.requestState', 'inputResponses', '*.inputResponses', 'key', 'keys'], remove: true },
  });
}

export interface ExchangeLogFields {
  exchangeId: string;
  workflowId: string;
  round?: number;
}

export function exchangeLogger(parent: Logger, fields: ExchangeLogFields): Logger {
  return parent.child(fields);
}
