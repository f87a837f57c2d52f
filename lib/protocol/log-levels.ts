/** MCP logging levels (RFC 5424 severities), least to most severe. */
const SEVERITY: Record<string, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

/** Whether a message at `level` passes a client's minimum level; no minimum means no logs. */
export function passesLogLevel(level: string, minimum: string | undefined): boolean {
  if (minimum === undefined) return false;
  return (SEVERITY[level] ?? 0) >= (SEVERITY[minimum] ?? 0);
}
