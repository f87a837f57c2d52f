/**
 * Structured logging. One pino base logger per process, bound to the service name; every line
 * about an exchange comes from `exchangeLogger`, so it carries `exchangeId`, `workflowId` and
 * `round` under the same names everywhere. Answers, requestState and keys are never logged.
 */
import { createHash } from 'node:crypto';
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['requestState', '*.requestState', 'inputResponses', '*.inputResponses', 'key', 'keys'],
      remove: true,
    },
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

/**
 * How a log line names a handshake-era session: a short digest, never the id itself. The session
 * id is the client's bearer credential on the wire (whoever knows it can act in the session), so
 * logs must not carry it; the digest still lets an operator follow one session across lines.
 */
export function sessionRef(sessionId: string): { session: string } {
  return { session: createHash('sha256').update(sessionId).digest('hex').slice(0, 12) };
}
