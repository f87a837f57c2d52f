/**
 * The 2026-07-28 request ladder, checked in this order so every client gets the same answer:
 *   1. required headers and their agreement with the body   → 400, -32020
 *      (MCP-Protocol-Version, Mcp-Method, Mcp-Name, then a tools/call's Mcp-Param-* headers)
 *   2. `_meta` protocol version and client capabilities      → 400, -32602
 *   3. a protocol version this server implements             → 400, -32022
 * (Unknown methods, -32601 with 404, come next, in the dispatcher.)
 *
 * There is no handshake in this revision: every request carries its version and capabilities,
 * and the server MUST NOT infer capabilities from earlier requests.
 */
import { RequestMetaSchema } from '@modelcontextprotocol/core';
import type { Request } from 'express';
import { z } from 'zod';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSION_META_KEY,
} from '../../../../lib/protocol/modern';
import {
  headerMismatch,
  invalidHeaderValue,
  invalidParams,
  missingHeader,
  unsupportedProtocolVersion,
} from '../../../../lib/protocol/error-catalog';
import { decodeHeaderValue } from '../../../../lib/protocol/header-value';
import { checkParamHeaders } from '../../../../lib/protocol/param-headers';
import { clientOf } from '../../../../lib/exchange/exchange-details';
import type { ToolParamHeaders } from '../../../../lib/handler-set/tool-param-headers';

export interface ModernEnvelope {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  logLevel?: string;
  progressToken?: string | number;
  /** The client's name and version from `_meta`'s clientInfo, when it sent them (for operators, not for decisions). */
  clientInfo?: { name: string; version?: string };
  /** The HTTP User-Agent: which client's retry loop this is, where that loop is known to stop sooner (client-patience.ts). */
  userAgent?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const missingField = (key: string) => ({ error: `Missing required _meta field: ${key}` });

/**
 * The 2026-07-28 `_meta` envelope: the SDK's request `_meta` (loose: other keys ride along) with
 * the two keys every request of this revision carries; either one absent or mistyped is refused
 * as missing, version first. (The inbound message was read against the SDK's JSON-RPC schemas
 * already, so `params` and `_meta` are objects when present, and `progressToken` is well typed.)
 */
const ModernMetaSchema = RequestMetaSchema.extend({
  [PROTOCOL_VERSION_META_KEY]: z.string(missingField(PROTOCOL_VERSION_META_KEY)),
  [CLIENT_CAPABILITIES_META_KEY]: z.record(z.string(), z.unknown(), missingField(CLIENT_CAPABILITIES_META_KEY)),
});

/** True when a request carries the 2026-07-28 `_meta` envelope (how the modern era is recognised). */
export function hasModernMeta(params: unknown): boolean {
  return isObject(params) && isObject(params._meta) && PROTOCOL_VERSION_META_KEY in params._meta;
}

/** Methods whose target travels in the `Mcp-Name` header (SEP-2243; the task id, SEP-2663 routing headers). */
const NAMED_TARGET: Record<string, 'name' | 'uri' | 'taskId'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

function checkHeaders(
  req: Request,
  method: string,
  params: Record<string, unknown>,
  metaVersion: unknown,
  paramHeaders: ToolParamHeaders,
): void {
  const version = req.get('mcp-protocol-version');
  if (version === undefined) throw missingHeader('MCP-Protocol-Version');
  const methodHeader = req.get('mcp-method');
  if (methodHeader === undefined) throw missingHeader('Mcp-Method');
  if (methodHeader !== method) throw headerMismatch('Mcp-Method', methodHeader, 'body', method);
  const targetField = NAMED_TARGET[method];
  if (targetField) {
    const raw = req.get('mcp-name');
    if (raw === undefined) throw missingHeader('Mcp-Name');
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) throw invalidHeaderValue('Mcp-Name', decoded.problem);
    const name = decoded.value;
    const body = params[targetField];
    if (typeof body === 'string' && body !== name) {
      throw headerMismatch('Mcp-Name', name, 'body', body);
    }
  }
  if (typeof metaVersion === 'string' && metaVersion !== version) {
    throw headerMismatch('MCP-Protocol-Version', version, '_meta', metaVersion);
  }
  // A tool this deployment lacks declares nothing here; the dispatcher answers it as unknown.
  const declared = method === 'tools/call' && typeof params.name === 'string' && paramHeaders.get(params.name);
  if (declared) checkParamHeaders(declared, params.arguments, (header) => req.get(header));
}

export function validateModernRequest(
  req: Request,
  method: string,
  rawParams: unknown,
  paramHeaders: ToolParamHeaders,
): ModernEnvelope {
  const params = isObject(rawParams) ? rawParams : {};
  const meta = isObject(params._meta) ? params._meta : {};
  checkHeaders(req, method, params, meta[PROTOCOL_VERSION_META_KEY], paramHeaders);

  const checked = ModernMetaSchema.safeParse(meta);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw invalidParams(issue.message, { path: ['params', '_meta', ...issue.path.map(String)].join('.') });
  }
  const version = checked.data[PROTOCOL_VERSION_META_KEY];
  if (!(MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    throw unsupportedProtocolVersion(version, MODERN_PROTOCOL_VERSIONS);
  }
  const { progressToken } = checked.data;
  const logLevel = meta[LOG_LEVEL_META_KEY];
  const clientInfo = clientOf(meta[CLIENT_INFO_META_KEY]);
  return {
    protocolVersion: version,
    // As the client sent them: capabilities are carried, never rewritten.
    clientCapabilities: meta[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown>,
    ...(clientInfo ? { clientInfo } : {}),
    ...(typeof logLevel === 'string' ? { logLevel } : {}),
    ...(progressToken !== undefined ? { progressToken } : {}),
    ...(req.get('user-agent') !== undefined ? { userAgent: req.get('user-agent') } : {}),
  };
}
