/**
 * `subscriptions/listen` (2026-07-28): a POST whose SSE response stays open and carries the change
 * notifications the client asked for. First `notifications/subscriptions/acknowledged`, naming
 * what of the filter is honored: `toolsListChanged`, `promptsListChanged` and
 * `resourcesListChanged`, where the served lists can change (the gateway's upstreams), nothing
 * else (no resource subscription of this service changes while it runs). Then each
 * `notifications/tools/list_changed` (or `prompts/`, `resources/`) it asked for. Every message
 * carries `_meta["io.modelcontextprotocol/subscriptionId"]`, the listen request's id. A filter
 * honored in nothing is acknowledged and ended at once, as the SDK's own router does.
 *
 * It ends when the client closes the stream, or, with the empty result (the graceful end a client
 * re-listens after), when the process drains. Each open listen takes a slot of the budget
 * (listen-budget.ts: MAX_OPEN_SUBSCRIPTIONS, MAX_OPEN_SUBSCRIPTIONS_PER_PRINCIPAL), freed as it ends.
 */
import { SubscriptionsListenRequestParamsSchema } from '@modelcontextprotocol/core';
import { listenNeedsEventStream } from '../../../../lib/protocol/error-catalog';
import { SUBSCRIPTION_ID_META_KEY } from '../../../../lib/protocol/modern';
import { parseParams } from '../../../../lib/protocol/parse-params';
import { listChanged, type ListChanges, type ListKind } from '../../../../lib/handler-set/list-changes';
import type { CallContext } from './call-context';
import type { ListenBudget } from './listen-budget';
import { complete } from './wire-result';

/** How often an idle listen stream gets a comment, so proxies that close idle connections leave it open. */
const KEEP_ALIVE_MS = 15_000;

export interface SubscriptionsListenDeps {
  /** The served lists' changes, when they can change. */
  listChanges?: ListChanges;
  budget: ListenBudget;
}

/** Each filter key, and the list whose changes it asks for. */
const FILTER_KINDS = {
  toolsListChanged: 'tools',
  promptsListChanged: 'prompts',
  resourcesListChanged: 'resources',
} as const satisfies Record<string, ListKind>;
type ListFilter = Partial<Record<keyof typeof FILTER_KINDS, true>>;

/** Of the filter asked for, what this server honors: every list's changes, where the lists can change. */
export function honoredFilter(
  requested: Partial<Record<keyof typeof FILTER_KINDS, boolean | undefined>>,
  served: { listsChange: boolean },
): ListFilter {
  if (!served.listsChange) return {};
  return Object.fromEntries(
    Object.keys(FILTER_KINDS)
      .filter((key) => requested[key as keyof typeof FILTER_KINDS] === true)
      .map((key) => [key, true]),
  ) as ListFilter;
}

/** Resolves once `signal` aborted (at once if it has). */
const abortOf = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

export function createSubscriptionsListen(deps: SubscriptionsListenDeps) {
  const { listChanges, budget } = deps;

  return async function listen(params: unknown, call: CallContext): Promise<Record<string, unknown>> {
    const { notifications } = parseParams(SubscriptionsListenRequestParamsSchema, params);
    if (!call.channel.canStream) throw listenNeedsEventStream();
    const subscriptionId = call.requestId;
    const tagged = { [SUBSCRIPTION_ID_META_KEY]: subscriptionId };
    const honored = honoredFilter(notifications, { listsChange: listChanges !== undefined });
    const kinds = new Set(Object.keys(honored).map((key) => FILTER_KINDS[key as keyof typeof FILTER_KINDS]));
    const release = budget.take(call.caller.id);
    try {
      call.channel.notify({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: honored, _meta: tagged },
      });
      if (kinds.size > 0 && listChanges && !call.signal.aborted) {
        const unsubscribe = listChanges.subscribe((kind) => {
          if (kinds.has(kind)) call.channel.notify({ ...listChanged(kind), params: { _meta: tagged } });
        });
        const keepAlive = setInterval(() => call.channel.comment('keep-alive'), KEEP_ALIVE_MS);
        keepAlive.unref();
        try {
          await abortOf(call.signal);
        } finally {
          clearInterval(keepAlive);
          unsubscribe();
        }
      }
      // Written only when the stream is still open (the process drains): the client then listens again.
      return complete({ _meta: tagged });
    } finally {
      release();
    }
  };
}

export type SubscriptionsListen = ReturnType<typeof createSubscriptionsListen>;
