/**
 * The Temporal Web UI's workflow list as the operator's guide sets it up for exchanges: which tool
 * (`McpTarget`), which caller (`McpPrincipal`), where it stands (`ExchangeStatus`)
 * since when and on whom it waits (`WaitingSince`, `WaitingOn`), who answered (`AnsweredBy`). The UI keeps a browser's
 * columns in its local storage (`namespace-workflow-table-columns`, per namespace; UI 2.x), set
 * through the list's column settings; no server setting of the dev server or of the UI's own
 * config chooses them. The dev stack's UI door (temporal-ui-door.ts) seeds them on a browser's
 * first visit; the production screenshots set the same columns a person adds.
 */
import {
  EXCHANGE_STATUS,
  MCP_PRINCIPAL,
  MCP_TARGET,
  WAITING_SINCE,
  WAITING_ON,
  ANSWERED_BY,
} from '../../../lib/exchange/search-attributes';

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

/**
 * A script for the UI's page that gives this browser the exchange columns for `namespace` unless
 * it has columns of its own for it: a person's own choice, once made, is never overwritten.
 */
export function seedExchangeColumnsScript(namespace: string): string {
  const key = JSON.stringify(UI_COLUMNS_STORAGE_KEY);
  return [
    '(function () {',
    '  try {',
    `    var all = JSON.parse(localStorage.getItem(${key}) || '{}');`,
    `    if (all[${JSON.stringify(namespace)}]) return;`,
    `    all[${JSON.stringify(namespace)}] = ${JSON.stringify(EXCHANGE_LIST_COLUMNS)};`,
    `    localStorage.setItem(${key}, JSON.stringify(all));`,
    '  } catch (e) {}',
    '})();',
  ]
    .join('\n')
    .replace(/</g, '\\u003c'); // never a closing tag inside the page's script
}
