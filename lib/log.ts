/**
 * Structured logging. One pino base logger per process, bound to the service name; every line
 * about an exchange comes from `exchangeLogger`, so it carries `exchangeId`, `workflowId` and
 * `round` under the same names everywhere. Answers, requestState and keys are never logged.
 */
import { createHash } from 'node:crypto';
import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * `sync`: write each line to stdout before going on, instead of pino's default of queueing lines
 * behind the write in flight, which a killed process loses. The worker logs so: a line about a
 * round (`round started` before its handler runs) is out of the process before what it describes
 * happens, so a SIGKILL never leaves a recorded round without its line.
 */
export function createLogger(service: string, level: string, options: { sync?: boolean } = {}): Logger {
  const settings = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['requestState', '*.requestState', 'inputResponses', '*.inputResponses', 'key', 'keys'],
      remove: true,
    },
  };
  return options.sync ? pino(settings, pino.destination({ dest: 1, sync: true })) : pino(settings);
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
