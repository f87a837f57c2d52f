/** Constants of the 2026-07-28 revision's per-request `_meta` envelope. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
export const MODERN_PROTOCOL_VERSIONS = [MODERN_PROTOCOL_VERSION] as const;

export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
export const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';
export const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';
/** On every message of a `subscriptions/listen` stream: the id of the listen request that opened it. */
export const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

export const SERVER_INFO = { name: 'durable-mcp', version: '0.1.0' } as const;
