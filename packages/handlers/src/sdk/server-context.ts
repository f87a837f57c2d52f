/**
 * The SDK's `ServerContext` (what a `registerTool` callback gets as `ctx`) built from what
 * durable-mcp gives a round. What has no counterpart here is absent or refused; docs/handler-authors.md,
 * "Tools written for the official SDK", lists each difference.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type LoggingLevel,
  type McpServerOptions,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { HandlerContext } from '../context';
import { invalidRequestState, pushRefused } from './errors';

type Verify = NonNullable<McpServerOptions['requestState']>['verify'];

/**
 * The SDK's `partitionInputResponses`: it hands a tool only bare result objects, and names the
 * keys it dropped (a `{ method, result }` wrapper, anything not an object).
 */
export function partitionInputResponses(responses: Record<string, unknown>): {
  accepted: Record<string, unknown>;
  dropped: string[];
} {
  const accepted: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, entry] of Object.entries(responses)) {
    const plain = typeof entry === 'object' && entry !== null && !Array.isArray(entry);
    if (!plain || 'method' in entry || 'result' in entry) dropped.push(key);
    else accepted[key] = entry;
  }
  return { accepted, dropped };
}

/** A notification the tool sent, delivered the way durable-mcp delivers one, or dropped and logged. */
function notifier(h: HandlerContext): ServerContext['mcpReq']['notify'] {
  return async (notification) => {
    const params = (notification.params ?? {}) as Record<string, unknown>;
    if (notification.method === 'notifications/progress') {
      return h.progress(
        params.progress as number,
        params.total as number | undefined,
        params.message as string | undefined,
      );
    }
    if (notification.method === 'notifications/message') {
      return h.sendLog(params.level as LoggingLevel, params.data, params.logger as string | undefined);
    }
    h.log.warn(
      { method: notification.method },
      'a notification the tool sent was dropped: a round can only send progress and logs',
    );
  };
}

/**
 * The `ctx` of one round. With a `requestState.verify` hook, the state the tool returned is passed
 * through it, as the SDK does before the tool runs; a state it refuses ends the call with `-32602`.
 */
export async function serverContext(h: HandlerContext, verify?: Verify): Promise<ServerContext> {
  let state: unknown = h.requestState;
  const given = Object.keys(h.inputResponses).length > 0 ? partitionInputResponses(h.inputResponses) : undefined;
  const refuse = (method: string) => async () => {
    throw pushRefused(method);
  };
  const ctx: ServerContext = {
    sessionId: undefined, // an exchange outlives its legs and sessions
    mcpReq: {
      id: `${h.exchangeId}:${h.round}`, // each leg has its own JSON-RPC id; the round is what stays
      method: 'tools/call',
      // Always present: `ctx.progress` drops an update the client did not ask for.
      _meta: { progressToken: `${h.exchangeId}:${h.round}` },
      envelope: { [CLIENT_CAPABILITIES_META_KEY]: h.clientCapabilities },
      inputResponses: given?.accepted, // undefined when the request carried none, as in the SDK
      ...(given?.dropped.length ? { droppedInputResponseKeys: given.dropped } : {}),
      requestState: <T>() => state as T | undefined,
      signal: h.signal,
      send: (async (request: { method: string }) => {
        throw pushRefused(request.method);
      }) as ServerContext['mcpReq']['send'],
      notify: notifier(h),
      log: (level, data, logger) => h.sendLog(level, data, logger),
      elicitInput: refuse('elicitation/create'),
      requestSampling: refuse('sampling/createMessage'),
    },
    http: {
      // The caller, never their credential: AuthInfo.token is required by the type, so it is empty.
      authInfo: {
        token: '',
        clientId: h.principal.clientId ?? h.principal.subject,
        scopes: [...h.principal.scopes],
        extra: { subject: h.principal.subject, issuer: h.principal.issuer, principalId: h.principal.id },
      },
      closeSSE: () => void h.closeStream(),
    },
  };
  if (typeof h.requestState === 'string' && verify) {
    try {
      state = await verify(h.requestState, ctx);
    } catch {
      throw invalidRequestState();
    }
  }
  return ctx;
}
