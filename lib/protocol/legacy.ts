/** The legacy revisions this server negotiates, newest first. */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_LEGACY_VERSION = LEGACY_PROTOCOL_VERSIONS[0];

export const SESSION_HEADER = 'mcp-session-id';

/** The version a server answers `initialize` with: the client's, if supported, else the latest. */
export function negotiateVersion(requested: unknown): string {
  return typeof requested === 'string' && (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(requested)
    ? requested
    : LATEST_LEGACY_VERSION;
}
