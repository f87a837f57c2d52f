/**
 * `subscriptions/listen` (2026-07-28): a POST whose SSE response stays open and carries the change
 * notifications the client asked for. First `notifications/subscriptions/acknowledged`, naming
 * what of the filter is honored: `toolsListChanged`, where the served tools can change (the
 * gateway's upstreams), nothing else (no prompt, resource or resource subscription of this service
 * changes while it runs). Then each `notifications/tools/list_changed`. Every message carries
 * `_meta["io.modelcontextprotocol/subscriptionId"]`, the listen request's id. A filter honored in
 * nothing is acknowledged and ended at once, as the SDK's own router does.
 *
 * It ends when the client closes the stream, or, with the empty result (the graceful end a client
 * re-listens after), when the process drains. Each open listen takes a slot of the budget
 * (listen-budget.ts: MAX_OPEN_SUBSCRIPTIONS, MAX_OPEN_SUBSCRIPTIONS_PER_PRINCIPAL), freed as it ends.
 */
import { SubscriptionsListenRequestParamsSchema } from '@modelcontextprotocol/core';
import { listenNeedsEventStream } from '../../../../lib/protocol/error-catalog';
import { SUBSCRIPTION_ID_META_KEY } from '../../../../lib/protocol/modern';
import { parseParams } from '../../../../lib/protocol/parse-params';
import { TOOL_LIST_CHANGED, type ToolListChanges } from '../../../../lib/handler-set/tool-list-changes';
import type { CallContext } from './call-context';
import type { ListenBudget } from './listen-budget';
import { complete } from './wire-result';

/** How often an idle listen stream gets a comment, so proxies that close idle connections leave it open. */
const KEEP_ALIVE_MS = 15_000;

export interface SubscriptionsListenDeps {
  /** The served tools' changes, when they can change. */
  toolListChanges?: ToolListChanges;
  budget: ListenBudget;
}

/** Of the filter asked for, what this server honors. */
export function honoredFilter(
  requested: { toolsListChanged?: boolean | undefined },
  served: { toolsListChanged: boolean },
): { toolsListChanged?: true } {
  return requested.toolsListChanged === true && served.toolsListChanged ? { toolsListChanged: true } : {};
}

/** Resolves once `signal` aborted (at once if it has). */
const abortOf = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

export function createSubscriptionsListen(deps: SubscriptionsListenDeps) {
  const { toolListChanges, budget } = deps;

  return async function listen(params: unknown, call: CallContext): Promise<Record<string, unknown>> {
    const { notifications } = parseParams(SubscriptionsListenRequestParamsSchema, params);
    if (!call.channel.canStream) throw listenNeedsEventStream();
    const subscriptionId = call.requestId;
    const tagged = { [SUBSCRIPTION_ID_META_KEY]: subscriptionId };
    const honored = honoredFilter(notifications, { toolsListChanged: toolListChanges !== undefined });
    const release = budget.take(call.caller.id);
    try {
      call.channel.notify({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: honored, _meta: tagged },
      });
      if (honored.toolsListChanged && toolListChanges && !call.signal.aborted) {
        const unsubscribe = toolListChanges.subscribe(() =>
          call.channel.notify({ ...TOOL_LIST_CHANGED, params: { _meta: tagged } }),
        );
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
