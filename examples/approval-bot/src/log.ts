/**
 * One JSON line per event, on stdout. Callers pass ids, statuses and reasons, never a token, a
 * secret, the chat's URL or a question's content.
 */
export type LogFields = Record<string, string | number | boolean | undefined>;
export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export function jsonLogger(write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const at =
    (level: string) =>
    (msg: string, fields: LogFields = {}) =>
      write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  return { info: at('info'), warn: at('warn'), error: at('error') };
}
