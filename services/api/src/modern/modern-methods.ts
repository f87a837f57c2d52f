/**
 * The 2026-07-28 methods this server answers. `tools/call` runs as a durable exchange; discovery
 * and listing are answered directly from the loaded handler set.
 */
import { CallToolRequestParamsSchema } from '@modelcontextprotocol/core';
import type { Request } from 'express';
import { z } from 'zod';
import { findTool, type HandlerSet } from '../../../../lib/handler-api';
import { METHOD_NOT_FOUND } from '../../../../lib/protocol/json-rpc-codes';
import { MODERN_PROTOCOL_VERSIONS } from '../../../../lib/protocol/modern';
import { invalidParams, RpcError } from '../../../../lib/protocol/rpc-error';
import type { RequestStateCodec } from '../../../../lib/state/request-state';
import { requestDigestOf, type ExchangeLegs } from '../exchange-legs';
import { readEnvelope } from './envelope';
import { complete, renderLeg } from './render';

const PRINCIPAL = 'anonymous'; // until authentication exists, every caller is the same principal
const LIST_TTL_MS = 60_000;

const RetryFieldsSchema = z.object({
  inputResponses: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  requestState: z.string().min(1).optional(),
});

export interface ModernMethodsDeps {
  handlers: HandlerSet;
  legs: ExchangeLegs;
  requestState: RequestStateCodec;
}

/** Parses with a schema; a failure names the first offending field's path. */
function parseParams<T>(schema: z.ZodType<T>, params: unknown): T {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = ['params', ...issue.path.map(String)].join('.');
  throw invalidParams(`Invalid params: ${path}: ${issue.message}`, { path });
}

export function createModernMethods(deps: ModernMethodsDeps) {
  const { handlers, legs } = deps;

  async function callTool(params: unknown, capabilities: Record<string, unknown>, signal: AbortSignal) {
    const call = parseParams(CallToolRequestParamsSchema, params);
    const retry = parseParams(RetryFieldsSchema, params);
    if (!findTool(handlers, call.name)) throw invalidParams(`Unknown tool: ${call.name}`, { path: 'params.name' });
    const request = { method: 'tools/call' as const, target: call.name, params: { name: call.name, arguments: call.arguments ?? {} } };
    const leg = await legs.run(
      { ...request, ...retry, clientCapabilities: capabilities, principal: PRINCIPAL, era: 'modern' },
      signal,
    );
    return renderLeg(leg, deps.requestState, { requestDigest: requestDigestOf(request), principal: PRINCIPAL });
  }

  return async function dispatch(req: Request, method: string, params: unknown, signal: AbortSignal) {
    const envelope = readEnvelope(req, method, params);
    switch (method) {
      case 'server/discover':
        return complete({
          supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
          capabilities: { tools: {} },
          ttlMs: LIST_TTL_MS,
          cacheScope: 'public',
        });
      case 'tools/list':
        return complete({ tools: handlers.tools.map((h) => h.tool), ttlMs: LIST_TTL_MS, cacheScope: 'public' });
      case 'tools/call':
        return callTool(params, envelope.clientCapabilities, signal);
      default:
        throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${method}`);
    }
  };
}

export type ModernDispatch = ReturnType<typeof createModernMethods>;
