/**
 * Search attributes that make exchanges findable in the Temporal Web UI
 * (for example `ExchangeStatus = "running" AND McpMethod = "tools/call"`). This list is the one
 * source: the dev launcher, the test harness and the fault suite register `SEARCH_ATTRIBUTES` (or
 * their `--search-attribute` flags), and a test checks docker-compose registers exactly the same.
 */
import { defineSearchAttributeKey, type SearchAttributeType } from '@temporalio/common';

export const MCP_METHOD = defineSearchAttributeKey('McpMethod', 'KEYWORD');
export const MCP_TARGET = defineSearchAttributeKey('McpTarget', 'KEYWORD');
export const EXCHANGE_STATUS = defineSearchAttributeKey('ExchangeStatus', 'KEYWORD');
export const EXCHANGE_ROUND = defineSearchAttributeKey('ExchangeRound', 'INT');
/** The principal's stable key (lib/exchange/principal.ts): who the exchange belongs to; names a caller, never a credential. */
export const MCP_PRINCIPAL = defineSearchAttributeKey('McpPrincipal', 'KEYWORD');

export const SEARCH_ATTRIBUTES = [MCP_METHOD, MCP_TARGET, EXCHANGE_STATUS, EXCHANGE_ROUND, MCP_PRINCIPAL];

/** The type names the Temporal CLI takes (`--search-attribute Name=Type`). */
const CLI_TYPE_NAMES: Partial<Record<SearchAttributeType, string>> = {
  KEYWORD: 'Keyword',
  INT: 'Int',
  TEXT: 'Text',
  BOOL: 'Bool',
  DOUBLE: 'Double',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/** `name=Type` pairs, the form `temporal server start-dev --search-attribute` takes. */
export const SEARCH_ATTRIBUTE_FLAGS = SEARCH_ATTRIBUTES.map((key) => `${key.name}=${CLI_TYPE_NAMES[key.type]}`);
