/**
 * The MCP endpoint as each era reaches it: the 2026-07-28 methods (stateless, one request each)
 * and the handshake-era endpoint (sessions, their streams, server-to-client requests), both over
 * the same exchange legs, stores and Temporal client that api.ts wires.
 */
import type { HandlerSet } from '@durable-mcp/handlers';
import type { Config } from '../../../lib/config';
import type { ExchangeStore } from '../../../lib/db/exchange-store';
import type { LegacyStore } from '../../../lib/db/legacy-store';
import type { TaskStore } from '../../../lib/db/task-store';
import type { OutcomeWaiter } from '../../../lib/db/outcome-waiter';
import type { ExchangeGateway } from '../../../lib/exchange-client/exchange-gateway';
import type { ExchangeReconciler } from '../../../lib/exchange-client/exchange-reconciler';
import type { ArgumentChecks } from '../../../lib/handler-set/argument-checks';
import type { ListChanges } from '../../../lib/handler-set/list-changes';
import type { ToolParamHeaders } from '../../../lib/handler-set/tool-param-headers';
import type { Logger } from '../../../lib/log';
import type { RequestStateCodec } from '../../../lib/state/request-state';
import { servesAwaitAnswer } from './catalog/await-answer-tool';
import type { CallerPages } from './exchange-legs/leg-types';
import type { ExchangeLegs } from './exchange-legs/exchange-legs';
import { createWaitingOn } from './exchange-legs/waiting-on';
import type { Shutdown } from './http/shutdown';
import { createLegacyEndpoint } from './legacy/legacy-endpoint';
import { createLegacyMethods } from './legacy/legacy-methods';
import { createLegacyTaskMethods } from './legacy/legacy-task-methods';
import { createAwaitAnswer } from './modern/await-answer';
import { createListenBudget } from './modern/listen-budget';
import { createModernMethods } from './modern/modern-methods';

export interface McpEndpointDeps {
  handlers: HandlerSet;
  served: { version: string; listChanges?: ListChanges };
  legs: ExchangeLegs;
  store: ExchangeStore;
  legacy: LegacyStore;
  tasks: TaskStore;
  gateway: ExchangeGateway;
  reconciler: ExchangeReconciler;
  waiter: OutcomeWaiter;
  requestState: RequestStateCodec;
  paramHeaders: ToolParamHeaders;
  argumentChecks: ArgumentChecks;
  shutdown: Shutdown;
  log: Logger;
  callerPages?: CallerPages;
}

/** The app's `dispatch` (2026-07-28) and `legacy` (handshake era) endpoints. */
export function mcpEndpoints(config: Config, deps: McpEndpointDeps) {
  const { handlers, served, legs, store, legacy, tasks, gateway, reconciler, waiter, requestState } = deps;
  const { paramHeaders, argumentChecks, shutdown, log } = deps;
  // With the answer page on, waiting messages name the page of a question addressed to the caller.
  const questionPages = deps.callerPages ? { questionPageUrl: deps.callerPages.pageUrl } : {};
  const awaitAnswer = createAwaitAnswer((id) => store.readCall(id));
  return {
    dispatch: createModernMethods({
      handlers,
      legs,
      requestState,
      waiter,
      paramHeaders,
      argumentChecks,
      questionProgressEveryMs: config.http.questionProgressEveryMs,
      pendingResultAtLeg: config.http.pendingResultAtLeg,
      reattachIdenticalCallsMs: config.http.reattachIdenticalCallsMs,
      // Read at each call: a gateway's tools come and go with its upstreams' listings (none at the
      // start while an upstream is down), and with them whether the built-in tool is served.
      get awaitAnswer() {
        return servesAwaitAnswer(handlers) ? awaitAnswer : undefined;
      },
      ...questionPages,
      listen: {
        budget: createListenBudget(config.limits),
        ...(served.listChanges ? { listChanges: served.listChanges } : {}),
      },
      tasks: {
        tasks,
        gateway,
        reconciler,
        reconcileAfterMs: config.http.waitMs,
        maxRoundInputBytes: config.limits.maxRoundInputBytes,
        countRedeliveryCheck: (exchangeId, round) =>
          store.countRedeliveryCheck(exchangeId, round, config.limits.maxRepeatedAnswers),
        log,
      },
    }),
    legacy: createLegacyEndpoint({
      methods: createLegacyMethods({
        handlers,
        legacy,
        legs,
        argumentChecks,
        taskStore: tasks,
        pendingAfterMs: config.http.legacyPendingAfterMs,
        reattachIdenticalCallsMs: config.http.reattachIdenticalCallsMs,
        listsChange: served.listChanges !== undefined,
        awaiting: {
          exchanges: store,
          legacy,
          waiter,
          tasks,
          reconciler,
          waitingOn: createWaitingOn({ store, gateway }),
        },
        tasks: createLegacyTaskMethods({
          tasks,
          legacy,
          gateway,
          reconciler,
          waiter,
          reconcileAfterMs: config.http.waitMs,
          cancelWaitMs: config.http.waitMs,
          log,
          ...questionPages,
        }),
      }),
      legacy,
      exchanges: store,
      waiter,
      gateway,
      reconciler,
      endingCheckMs: config.http.waitMs,
      personWaitEveryMs: config.http.questionProgressEveryMs,
      log,
      limits: config.limits,
      shutdown,
      ...(deps.callerPages ? { callerPages: deps.callerPages } : {}),
      ...(served.listChanges ? { listChanges: served.listChanges } : {}),
    }),
  };
}
