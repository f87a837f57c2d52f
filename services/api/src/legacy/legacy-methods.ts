/**
 * What a legacy session can ask: the lifecycle (`initialize`, `ping`), `logging/setLevel`,
 * lists and completion (answered from the handler set), resource subscriptions (accepted; these
 * resources never change), and the three exchange methods, which start a durable exchange whose
 * asks go back to the client as real server-to-client requests. A 2025-11-25 session is also
 * offered tasks: a `tools/call` with `params.task` runs as one, followed by `tasks/get`,
 * `tasks/result` and `tasks/cancel` (legacy-task-methods.ts). A Streamable HTTP session's
 * `tools/call` that waits past its client's patience is answered with the pending result
 * (pending-call.ts), and the session is offered `await_answer` to wait for it again
 * (legacy-await-answer.ts), as an identical call does when it joins it.
 */
import { randomUUID } from 'node:crypto';
import {
  InitializeRequestParamsSchema,
  SetLevelRequestParamsSchema,
  SubscribeRequestParamsSchema,
} from '@modelcontextprotocol/core';
import type { LegacyCall, LegacySession, LegacyStore } from '../../../../lib/db/legacy-store';
import type { TaskStore } from '../../../../lib/db/task-store';
import { isExchangeMethod } from '../../../../lib/exchange/exchange-methods';
import type { ExchangeOrigin, Listening } from '../../../../lib/exchange/types';
import { clientOf } from '../../../../lib/exchange/exchange-details';
import { sessionRef } from '../../../../lib/log';
import { type HandlerSet } from '@durable-mcp/handlers';
import { findTool, identicalCallWindow, requireHandler } from '../../../../lib/handler-set/lookup';
import { negotiateVersion } from '../../../../lib/protocol/legacy';
import { isLegacyTaskMethod, LEGACY_TASKS_CAPABILITY, servesLegacyTasks } from '../../../../lib/protocol/legacy-tasks';
import { SERVER_INFO } from '../../../../lib/protocol/modern';
import { methodNotFound } from '../../../../lib/protocol/error-catalog';
import type { ExchangeLeg, ExchangeLegs } from '../exchange-legs/exchange-legs';
import { createCatalogMethods, listedTools, serverCapabilities } from '../catalog/catalog-methods';
import { readOriginalRequest } from '../../../../lib/protocol/original-request';
import type { ArgumentChecks } from '../../../../lib/handler-set/argument-checks';
import { parseParams } from '../../../../lib/protocol/parse-params';
import type { Principal } from '../../../../lib/exchange/principal';
import type { LegacyTaskMethods, TaskMethodAnswer } from './legacy-task-methods';
import { legacyTaskRequest, type LegacyTaskRequest } from './legacy-task-policy';
import { AWAIT_ANSWER, servesAwaitAnswer } from '../catalog/await-answer-tool';
import { createLegacyAwait, type AwaitedCall, type CallPending, type LegacyAwaitDeps } from './legacy-await-answer';
import type { PendingCall } from './pending-call';

/** Who a session's exchanges come from, as operators see it in Temporal: its client, its tag (never its id), its version. */
function originOf(session: LegacySession): ExchangeOrigin {
  const client = clientOf(session.clientInfo);
  return {
    ...(client ? { client } : {}),
    session: sessionRef(session.id).session,
    protocolVersion: session.protocolVersion,
  };
}

export interface LegacyMethodsDeps {
  handlers: HandlerSet;
  legacy: LegacyStore;
  legs: ExchangeLegs;
  /** The tools' compiled inputSchemas and the prompts' required arguments (`createArgumentChecks`). */
  argumentChecks: ArgumentChecks;
  /** tasks/get, tasks/result and tasks/cancel of 2025-11-25 sessions. */
  tasks: LegacyTaskMethods;
  /** The task rows (shared with the 2026-07-28 wire): a repeated task call finds its task there. */
  taskStore: Pick<TaskStore, 'readOfExchange'>;
  /** LEGACY_PENDING_AFTER_MS (0: a call waits as long as its client does). */
  pendingAfterMs: number;
  /** REATTACH_IDENTICAL_CALLS_MS: an identical call joins a running one (only where a call can be pending). */
  reattachIdenticalCallsMs: number;
  /**
   * What waiting again for a pending call reads (legacy-await-answer.ts): `await_answer`, served
   * unless a handler tool has its name, and an identical call that joins a running one.
   */
  awaiting: Omit<LegacyAwaitDeps, 'pendingAfterMs' | 'repeatReattaches'>;
  /** Whether the served lists can change while the process runs: `listChanged` is offered then (catalog-methods.ts). */
  listsChange?: boolean;
}

export type LegacyOutcome =
  | Exclude<TaskMethodAnswer, { kind: 'result' }>
  | { kind: 'result'; result: Record<string, unknown> }
  /**
   * An exchange to start; request-intake.ts records the call first, so a repeated request id
   * starts nothing. With `task`, it runs as a task and the request is answered with it at once.
   */
  | { kind: 'call'; leg: ExchangeLeg; listening: Listening; task?: LegacyTaskRequest; pending?: CallPending }
  /** `await_answer`: a call answered with the pending result, waited on again. */
  | Extract<AwaitedCall, { kind: 'await-stream' }>;

/** The server's capabilities at `initialize`: a session of the revision that has tasks is offered them. */
export function legacyCapabilities(
  handlers: HandlerSet,
  session: { protocolVersion: string; transport: string },
  listsChange = false,
): Record<string, unknown> {
  const served = serverCapabilities(handlers, listsChange);
  const capabilities = served.resources ? { ...served, resources: { ...served.resources, subscribe: true } } : served;
  return servesLegacyTasks(session) ? { ...capabilities, tasks: LEGACY_TASKS_CAPABILITY } : capabilities;
}

export function createLegacyMethods(deps: LegacyMethodsDeps) {
  const { handlers, legacy, legs, tasks } = deps;
  /** Pending results go on Streamable HTTP, whose calls each answer on a stream of their own. */
  const pendingOn = (session: LegacySession) => deps.pendingAfterMs > 0 && session.transport === 'streamable-http';
  const awaits = createLegacyAwait({
    ...deps.awaiting,
    pendingAfterMs: deps.pendingAfterMs,
    repeatReattaches: (tool) => identicalCallWindow(findTool(handlers, tool), deps.reattachIdenticalCallsMs) > 0,
  });
  // Decided at each request: a gateway's tools come and go with its upstreams' listings.
  const awaitsIn = (session: LegacySession) => (pendingOn(session) && servesAwaitAnswer(handlers) ? awaits : undefined);
  const catalog: Record<string, ((params: unknown) => unknown) | undefined> = createCatalogMethods(
    handlers,
    'legacy',
    deps.listsChange,
  );

  /**
   * `initialize`: negotiates the version and records the session the client will name, as
   * `principal`'s; without a principal, the session exists already (GET /sse opened it) and only
   * its handshake is recorded.
   */
  async function initialize(
    params: unknown,
    sessionId: string,
    transport: LegacySession['transport'],
    principal?: string,
  ) {
    const init = parseParams(InitializeRequestParamsSchema, params);
    const protocolVersion = negotiateVersion(init.protocolVersion);
    const handshake = {
      protocolVersion,
      clientCapabilities: init.capabilities as Record<string, unknown>,
      clientInfo: init.clientInfo as Record<string, unknown>,
    };
    if (principal === undefined) await legacy.updateSessionHandshake(sessionId, handshake);
    else await legacy.createSession({ id: sessionId, transport, principal, ...handshake });
    return {
      protocolVersion,
      capabilities: legacyCapabilities(handlers, { protocolVersion, transport }, deps.listsChange),
      serverInfo: SERVER_INFO,
      ...(handlers.instructions ? { instructions: handlers.instructions } : {}),
    };
  }

  /** A request of `session`, sent by `caller` (the session's own principal: sessions.ts `find` checked it). */
  async function call(
    session: LegacySession,
    caller: Principal,
    method: string,
    params: unknown,
  ): Promise<LegacyOutcome> {
    if (isExchangeMethod(method)) {
      const request = readOriginalRequest(method, params);
      const awaits = awaitsIn(session);
      if (method === 'tools/call' && request.target === AWAIT_ANSWER.name && awaits)
        return awaits.awaitHandle(session, caller.id, (params as { arguments?: unknown }).arguments);
      requireHandler(handlers, request);
      // Arguments the tool's inputSchema refuses are the call's answer: no call row, no exchange.
      const refusal = deps.argumentChecks.refusal(request);
      if (refusal) return { kind: 'result', result: refusal };
      const meta = (params as { _meta?: { progressToken?: unknown } } | undefined)?._meta;
      const progressToken =
        typeof meta?.progressToken === 'string' || typeof meta?.progressToken === 'number'
          ? meta.progressToken
          : undefined;
      const listening: Listening = { progressToken, logLevel: session.logLevel };
      const tool = method === 'tools/call' ? findTool(handlers, request.target) : undefined;
      const task = tool ? legacyTaskRequest(tool, params, servesLegacyTasks(session)) : undefined;
      // A call that can outwait its client gets the pending result then; an identical one joins it.
      const reattachWindowMs = identicalCallWindow(tool, deps.reattachIdenticalCallsMs);
      const pending: CallPending | undefined =
        tool && !task && pendingOn(session) && tool.longWait !== 'error'
          ? { afterMs: deps.pendingAfterMs, tool: tool.tool.name, repeatReattaches: reattachWindowMs > 0 }
          : undefined;
      const leg: ExchangeLeg = {
        request,
        clientCapabilities: session.clientCapabilities,
        principal: caller,
        era: 'legacy',
        listening,
        origin: originOf(session),
        ...(pending?.repeatReattaches ? { joins: { reattachWindowMs } } : {}),
      };
      return { kind: 'call', leg, listening, ...(task ? { task } : {}), ...(pending ? { pending } : {}) };
    }
    if (isLegacyTaskMethod(method) && servesLegacyTasks(session)) return tasks[method](session, params);
    switch (method) {
      case 'ping':
        return { kind: 'result', result: {} };
      case 'logging/setLevel': {
        const { level } = parseParams(SetLevelRequestParamsSchema, params);
        await legacy.setLogLevel(session.id, level);
        return { kind: 'result', result: {} };
      }
      case 'tools/list':
        // Each tool's taskSupport, for the sessions that are offered tasks.
        return {
          kind: 'result',
          result: {
            tools: [...listedTools(handlers, servesLegacyTasks(session)), ...(awaitsIn(session) ? [AWAIT_ANSWER] : [])],
          },
        };
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const { uri } = parseParams(SubscribeRequestParamsSchema, params);
        requireHandler(handlers, { method: 'resources/read', target: uri, params: { uri } });
        return { kind: 'result', result: {} };
      }
    }
    const answer = Object.hasOwn(catalog, method) && method !== 'server/discover' ? catalog[method] : undefined;
    if (!answer) throw methodNotFound(method);
    const { ttlMs: _ttl, cacheScope: _scope, ...result } = (await answer(params)) as Record<string, unknown>;
    return { kind: 'result', result };
  }

  return {
    initialize,
    call,
    /** Whether `method` starts an exchange (and so answers on a stream of its own). */
    startsExchange: (method: string | undefined) => method !== undefined && isExchangeMethod(method),
    /** Starts a call's exchange, or finds the running one of an identical call that it joins (`joins`). */
    start: (leg: ExchangeLeg, exchangeId: string) => legs.start(leg, exchangeId),
    /**
     * What a call resumed on another stream (Last-Event-ID) is answered pending with, if it can be:
     * a `tools/call` of this session's that is no task, whose client's timeout runs from its start.
     */
    async pendingOfCall(session: LegacySession, call: LegacyCall): Promise<PendingCall | undefined> {
      if (!pendingOn(session) || (await deps.taskStore.readOfExchange(call.exchangeId))) return undefined;
      const made = await deps.awaiting.exchanges.readCall(call.exchangeId);
      const tool = made?.method === 'tools/call' ? findTool(handlers, made.target) : undefined;
      if (!tool || tool.longWait === 'error') return undefined;
      const waited = call.startedAt ? Date.now() - call.startedAt.getTime() : 0;
      return {
        afterMs: Math.max(0, deps.pendingAfterMs - waited),
        tool: tool.tool.name,
        repeatReattaches: identicalCallWindow(tool, deps.reattachIdenticalCallsMs) > 0,
        respondTo: call.requestIdJson,
      };
    },
    /** Waits again for the running call `exchangeId` (of `tool`), which a repeat of it joined. */
    awaitJoined: (session: LegacySession, exchangeId: string, tool: string) =>
      awaits.awaitExchange(session, exchangeId, tool),
    /** Starts a call's exchange as a task (its row written before the workflow starts). */
    startTask: (leg: ExchangeLeg, exchangeId: string, task: LegacyTaskRequest) =>
      legs.startTask(leg, exchangeId, task.ttlMs),
    /** The task a recorded call runs as, if it runs as one. */
    taskOfCall: (exchangeId: string) => deps.taskStore.readOfExchange(exchangeId),
    /** Whether `method` answers on a stream: a call's exchange, or a running task's tasks/result. */
    answersOnStream: (method: string | undefined) =>
      method !== undefined && (isExchangeMethod(method) || method === 'tasks/result'),
    newSessionId: () => randomUUID(),
  };
}

export type LegacyMethods = ReturnType<typeof createLegacyMethods>;
