/**
 * The Temporal Web UI's workflow list as the operator's guide sets it up for exchanges: which tool
 * (`McpTarget`), which caller (`McpPrincipal`), where it stands (`ExchangeStatus`)
 * since when and on whom it waits (`WaitingSince`, `WaitingOn`), who answered (`AnsweredBy`). The UI keeps a browser's
 * columns in its local storage (`namespace-workflow-table-columns`, per namespace; UI 2.x), set
 * through the list's column settings; no server setting of the dev server or of the UI's own
 * config chooses them. The screenshots and the browser test set the same columns a person adds.
 */
import {
  EXCHANGE_STATUS,
  MCP_PRINCIPAL,
  MCP_TARGET,
  WAITING_SINCE,
  WAITING_ON,
  ANSWERED_BY,
} from '../lib/exchange/search-attributes';

/** The columns, in order: Temporal's own first (the status and the id stay pinned, as by default). */
export const EXCHANGE_LIST_COLUMNS: ReadonlyArray<{ label: string; pinned: boolean }> = [
  { label: 'Status', pinned: true },
  { label: 'Workflow ID', pinned: true },
  { label: MCP_TARGET.name, pinned: false },
  { label: MCP_PRINCIPAL.name, pinned: false },
  { label: EXCHANGE_STATUS.name, pinned: false },
  { label: WAITING_SINCE.name, pinned: false },
  { label: WAITING_ON.name, pinned: false },
  { label: ANSWERED_BY.name, pinned: false },
];

/** The UI's local-storage key for the workflow list's columns. */
export const UI_COLUMNS_STORAGE_KEY = 'namespace-workflow-table-columns';

/** A script for the UI's page that sets the exchange columns for `namespace` in this browser. */
export function exchangeColumnsScript(namespace: string): string {
  const value = JSON.stringify({ [namespace]: EXCHANGE_LIST_COLUMNS });
  return `localStorage.setItem(${JSON.stringify(UI_COLUMNS_STORAGE_KEY)}, ${JSON.stringify(value)});`;
}
