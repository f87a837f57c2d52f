/**
 * The 2026-07-28 dispatcher: validates the request envelope, then routes the method
 * (`subscriptions/listen` holds its response open: subscriptions-listen.ts). Anything
 * else, including the methods this revision removed (`initialize`, `ping`, `logging/setLevel`,
 * `resources/subscribe`, ...) and those the Tasks extension removed (`tasks/result`, `tasks/list`),
 * is `-32601` with HTTP 404.
 */
import type { Request } from 'express';
import { methodNotFound } from '../../../../lib/protocol/error-catalog';
import type { CallContext } from './call-context';
import { createCatalogMethods } from '../catalog/catalog-methods';
import { createExchangeMethods, type ExchangeMethodsDeps } from './exchange-methods';
import { complete } from './wire-result';
import type { ToolParamHeaders } from '../../../../lib/handler-set/tool-param-headers';
import { validateModernRequest } from './validate-request';
import { createTaskMethods, type TaskMethodsDeps } from './task-methods';
import { createSubscriptionsListen, type SubscriptionsListenDeps } from './subscriptions-listen';

/** What the exchange methods take (exchange-methods.ts), and what the envelope and the task methods take. */
export interface ModernMethodsDeps extends ExchangeMethodsDeps {
  /** The tools' `x-mcp-header` declarations (`toolParamHeaders`, read when the API starts). */
  paramHeaders: ToolParamHeaders;
  /** What tasks/get, tasks/update and tasks/cancel read and signal (the Tasks extension). */
  tasks: TaskMethodsDeps;
  /** What `subscriptions/listen` tells (the served lists' changes, when they can change) and its budget. */
  listen: SubscriptionsListenDeps;
}

export function createModernMethods(deps: ModernMethodsDeps) {
  const catalog: Record<string, ((params: unknown) => unknown) | undefined> = createCatalogMethods(
    deps.handlers,
    'modern',
    deps.listen.listChanges !== undefined,
  );
  const listen = createSubscriptionsListen(deps.listen);
  const exchanges: Record<string, ReturnType<typeof createExchangeMethods>['tools/call']> = {
    ...createExchangeMethods(deps),
    ...createTaskMethods({
      ...deps.tasks,
      ...(deps.questionPageUrl ? { questionPageUrl: deps.questionPageUrl } : {}),
    }),
  };

  return async function dispatch(req: Request, method: string, params: unknown, call: CallContext) {
    const envelope = validateModernRequest(req, method, params, deps.paramHeaders);
    const exchange = Object.hasOwn(exchanges, method) ? exchanges[method] : undefined;
    if (exchange) return exchange(params, envelope, call);
    if (method === 'subscriptions/listen') return listen(params, call);
    const answer = Object.hasOwn(catalog, method) ? catalog[method] : undefined;
    if (answer) return complete((await answer(params)) as Record<string, unknown>);
    throw methodNotFound(method);
  };
}

export type ModernDispatch = ReturnType<typeof createModernMethods>;
