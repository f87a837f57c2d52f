/**
 * Search attributes that make exchanges findable in the Temporal Web UI
 * (for example `ExchangeStatus = "running" AND McpMethod = "tools/call"`).
 * Every deployment registers them: the dev launcher with `--search-attribute`,
 * docker-compose with its admin-tools job. Pure definitions shared by the workflow (which sets
 * them), the API (which queries them) and the local stack (which registers them).
 */
import { defineSearchAttributeKey } from '@temporalio/common';

export const MCP_METHOD = defineSearchAttributeKey('McpMethod', 'KEYWORD');
export const MCP_TARGET = defineSearchAttributeKey('McpTarget', 'KEYWORD');
export const EXCHANGE_STATUS = defineSearchAttributeKey('ExchangeStatus', 'KEYWORD');
export const EXCHANGE_ROUND = defineSearchAttributeKey('ExchangeRound', 'INT');

/** `name=Type` pairs, the form `temporal server start-dev --search-attribute` takes. */
export const SEARCH_ATTRIBUTE_FLAGS = ['McpMethod=Keyword', 'McpTarget=Keyword', 'ExchangeStatus=Keyword', 'ExchangeRound=Int'];
