/**
 * Structured logging. One pino base logger per process, bound to the service name; every line
 * about an exchange comes from `exchangeLogger`, so it carries `exchangeId`, `workflowId` and
 * `round` under the same names everywhere. Answers, requestState, keys and bearer tokens are never
 * logged.
 *
 * Every line written while the API serves an HTTP request carries that request's `reqId`, and
 * its `exchangeId` once the request names one (`logExchange`), whichever logger writes it and
 * however deep (a store, the gateway, the outcome waiter): the request's fields live in an
 * AsyncLocalStorage that the base logger's `mixin` reads, so no logger is threaded through calls.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pino, { type Logger } from 'pino';

export type { Logger };

/** What the lines of one HTTP request carry: its id, and its exchange once known. */
interface RequestLogFields {
  reqId: string;
  exchangeId?: string;
}

const requestFields = new AsyncLocalStorage<RequestLogFields>();
/** Marks the loggers `exchangeLogger` binds (and their children), which name their exchange already. */
const NAMES_EXCHANGE = Symbol('namesExchange');

/** Runs `serve` (and everything it starts) as the request `reqId`: each line it logs carries the id. */
export function runAsRequest<T>(reqId: string, serve: () => T): T {
  return requestFields.run({ reqId }, serve);
}

/** Names the exchange the current request serves: its later lines carry `exchangeId`. Outside a request, nothing. */
export function logExchange(exchangeId: string): void {
  const fields = requestFields.getStore();
  if (fields) fields.exchangeId = exchangeId;
}

/** The fields the current request adds to a line (none outside one). */
function requestFieldsOf(_line: object, _level: number, logger: Logger): Partial<RequestLogFields> {
  const fields = requestFields.getStore();
  if (!fields) return {};
  // A logger bound to an exchange names it itself (pino would write the key twice).
  if (fields.exchangeId === undefined || NAMES_EXCHANGE in logger) return { reqId: fields.reqId };
  return { reqId: fields.reqId, exchangeId: fields.exchangeId };
}

/**
 * `sync`: write each line to stdout before going on, instead of pino's default of queueing lines
 * behind the write in flight, which a killed process loses. The worker logs so: a line about a
 * round (`round started` before its handler runs) is out of the process before what it describes
 * happens, so a SIGKILL never leaves a recorded round without its line. `destination`: where the
 * lines go instead of stdout (tests read them).
 */
export function createLogger(
  service: string,
  level: string,
  options: { sync?: boolean; destination?: pino.DestinationStream } = {},
): Logger {
  const settings = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: requestFieldsOf,
    // Credentials and answers never reach a log line, whoever logs them: a bearer token (an
    // Authorization header, or a verified token's AuthInfo), requestStates, answers, keys.
    redact: {
      paths: [
        'requestState',
        '*.requestState',
        'inputResponses',
        '*.inputResponses',
        'key',
        'keys',
        'authorization',
        '*.authorization',
        'headers.authorization',
        '*.headers.authorization',
        'token',
        '*.token',
      ],
      remove: true,
    },
  };
  if (options.destination) return pino(settings, options.destination);
  return options.sync ? pino(settings, pino.destination({ dest: 1, sync: true })) : pino(settings);
}

export interface ExchangeLogFields {
  exchangeId: string;
  workflowId: string;
  round?: number;
}

export function exchangeLogger(parent: Logger, fields: ExchangeLogFields): Logger {
  // A child's prototype is its parent: the mark holds for the children it makes too.
  return Object.assign(parent.child(fields), { [NAMES_EXCHANGE]: true });
}

/**
 * How a log line names a legacy session: a short digest, never the id itself. The session
 * id is the client's bearer credential on the wire (whoever knows it can act in the session), so
 * logs must not carry it; the digest still lets an operator follow one session across lines.
 */
export function sessionRef(sessionId: string): { session: string } {
  return { session: createHash('sha256').update(sessionId).digest('hex').slice(0, 12) };
}
