/**
 * Postgres going away under the service (a restart, a failover, the dev stack's embedded Postgres
 * stopped along with everything else by a terminal's Ctrl-C, `docker stop` or a session's end) is
 * an event to log in one line, not a fault: the stack of a protocol parser says nothing an operator
 * can use. What counts: the server ending the connection as it shuts down (SQLSTATE class 57:
 * `57P01` "terminating connection due to administrator command", `57P02`, `57P03` "the database
 * system is shutting down / starting up"), a connection that ends or is refused.
 */
const SHUTTING_DOWN = new Set(['57P01', '57P02', '57P03']);
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
const CONNECTION_MESSAGES = /^(Connection terminated( unexpectedly)?|Client has encountered a connection error)/;

/** What to log for a lost connection (its reason and code, no stack), or undefined for any other error. */
export function connectionLoss(error: unknown): { reason: string; code?: string } | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  const known = typeof code === 'string' && (SHUTTING_DOWN.has(code) || CONNECTION_CODES.has(code));
  if (!known && !CONNECTION_MESSAGES.test(text)) return undefined;
  return { reason: text, ...(typeof code === 'string' ? { code } : {}) };
}

/** The log fields for `error`: a lost connection in one line, anything else with its stack (`err`). */
export function postgresErrorFields(error: unknown): Record<string, unknown> {
  const lost = connectionLoss(error);
  return lost ? { postgres: lost } : { err: error };
}
