/**
 * Search attributes that make exchanges findable in the Temporal Web UI
 * (for example `ExchangeStatus = "running" AND McpMethod = "tools/call"`, or every exchange waiting
 * on a person for more than five minutes: `waitingLongerThanQuery`). This list is the one source:
 * the dev launcher, the test harness and the fault suite register `SEARCH_ATTRIBUTES` (or their
 * `--search-attribute` flags), and a test checks docker-compose registers exactly the same.
 *
 * Search attributes are not encrypted and any operator can list them: they carry no answer, no
 * argument and no secret. A session is named by its tag (`sessionRef`), never by its id.
 */
import { defineSearchAttributeKey, type SearchAttributeType } from '@temporalio/common';

export const MCP_METHOD = defineSearchAttributeKey('McpMethod', 'KEYWORD');
export const MCP_TARGET = defineSearchAttributeKey('McpTarget', 'KEYWORD');
export const EXCHANGE_STATUS = defineSearchAttributeKey('ExchangeStatus', 'KEYWORD');
export const EXCHANGE_ROUND = defineSearchAttributeKey('ExchangeRound', 'INT');
/** `modern` (2026-07-28) or `legacy` (a legacy session). */
export const MCP_ERA = defineSearchAttributeKey('McpEra', 'KEYWORD');
/** The client's own name (`clientInfo.name`), when it sent one. */
export const MCP_CLIENT_NAME = defineSearchAttributeKey('McpClientName', 'KEYWORD');
/** A legacy exchange's session, by its tag (12 hex digits of the SHA-256 of its id, as logs name it). */
export const MCP_SESSION = defineSearchAttributeKey('McpSession', 'KEYWORD');
/** The principal's stable key (lib/exchange/principal.ts, at most `MAX_PRINCIPAL_ID_LENGTH` characters): who the exchange belongs to; it names a caller, never carries a credential. */
export const MCP_PRINCIPAL = defineSearchAttributeKey('McpPrincipal', 'KEYWORD');
/**
 * The version of the handlers that started the exchange (`demo@0.1.0`, `acme-tools@1.2.0`,
 * `tools.js@sha256:1a2b3c4d5e6f`; at most `MAX_KEYWORD_CHARS`): which exchanges a version still holds.
 */
export const HANDLER_VERSION = defineSearchAttributeKey('HandlerVersion', 'KEYWORD');
/** When the exchange began waiting for the answers to its current ask; absent while it is not waiting. */
export const WAITING_SINCE = defineSearchAttributeKey('WaitingSince', 'DATETIME');

/**
 * Who answered the exchange's questions addressed to someone other than the caller (their
 * principal keys, as the answer page or API verified them), every answer it took so far.
 */
export const ANSWERED_BY = defineSearchAttributeKey('AnsweredBy', 'KEYWORD_LIST');

/**
 * Whom the exchange's current ask waits on (lib/exchange/waiting-on.ts): `caller`, or each addressee
 * of its addressed questions (`group:finance`, `principal:<issuer>|<subject>`...); set and cleared
 * with `WaitingSince`, so it is absent while the exchange is not waiting.
 */
export const WAITING_ON = defineSearchAttributeKey('WaitingOn', 'KEYWORD_LIST');

export const SEARCH_ATTRIBUTES = [
  MCP_METHOD,
  MCP_TARGET,
  EXCHANGE_STATUS,
  EXCHANGE_ROUND,
  MCP_ERA,
  MCP_CLIENT_NAME,
  MCP_SESSION,
  WAITING_SINCE,
  MCP_PRINCIPAL,
  HANDLER_VERSION,
  ANSWERED_BY,
  WAITING_ON,
];

/**
 * How many custom attributes of each type one namespace may have on SQL visibility (Postgres, and
 * the dev server's SQLite), which compose and the dev server use; `start-dev` refuses more.
 */
export const SQL_VISIBILITY_LIMITS: Record<SearchAttributeType, number> = {
  KEYWORD: 10,
  TEXT: 3,
  INT: 3,
  DOUBLE: 3,
  BOOL: 3,
  DATETIME: 3,
  KEYWORD_LIST: 3,
};

/** The longest Keyword value this service writes (client names are the client's to choose). */
export const MAX_KEYWORD_CHARS = 100;

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

/**
 * The visibility query for "every exchange waiting on a person for longer than `ms`", as of `now`:
 * the workflow still runs (a terminated one keeps the attributes it had) and its current wait
 * began before `now - ms`. Type it in the Temporal Web UI's workflow list, or pass it to
 * `temporal workflow list --query`.
 */
export function waitingLongerThanQuery(ms: number, now: Date): string {
  return `ExecutionStatus = "Running" AND ${WAITING_SINCE.name} < "${new Date(now.getTime() - ms).toISOString()}"`;
}
