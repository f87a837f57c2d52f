/**
 * The per-request envelope of the 2026-07-28 revision: no handshake, so every request carries its
 * protocol version and client capabilities in `_meta`, and the HTTP headers must agree with the body.
 */
import type { Request } from 'express';
import { HEADER_MISMATCH, UNSUPPORTED_PROTOCOL_VERSION } from '../../../../lib/protocol/json-rpc-codes';
import {
  CLIENT_CAPABILITIES_META_KEY,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSION_META_KEY,
} from '../../../../lib/protocol/modern';
import { invalidParams, RpcError } from '../../../../lib/protocol/rpc-error';

export interface ModernEnvelope {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** True when a request carries the modern `_meta` envelope (era detection, DESIGN "Rules"). */
export function hasModernMeta(params: unknown): boolean {
  return isObject(params) && isObject(params._meta) && PROTOCOL_VERSION_META_KEY in params._meta;
}

export function readEnvelope(req: Request, method: string, params: unknown): ModernEnvelope {
  const meta = isObject(params) && isObject(params._meta) ? params._meta : {};
  const version = meta[PROTOCOL_VERSION_META_KEY];
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (typeof version !== 'string') {
    throw invalidParams(`Missing _meta["${PROTOCOL_VERSION_META_KEY}"]`, { path: `params._meta.${PROTOCOL_VERSION_META_KEY}` });
  }
  if (!isObject(capabilities)) {
    throw invalidParams(`Missing _meta["${CLIENT_CAPABILITIES_META_KEY}"]`, {
      path: `params._meta.${CLIENT_CAPABILITIES_META_KEY}`,
    });
  }
  const headerVersion = req.get('mcp-protocol-version');
  if (headerVersion !== undefined && headerVersion !== version) {
    throw new RpcError(HEADER_MISMATCH, `Header mismatch: MCP-Protocol-Version '${headerVersion}' does not match _meta '${version}'`);
  }
  const headerMethod = req.get('mcp-method');
  if (headerMethod !== undefined && headerMethod !== method) {
    throw new RpcError(HEADER_MISMATCH, `Header mismatch: Mcp-Method '${headerMethod}' does not match body '${method}'`);
  }
  if (!(MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    throw new RpcError(UNSUPPORTED_PROTOCOL_VERSION, 'Unsupported protocol version', {
      supported: [...MODERN_PROTOCOL_VERSIONS],
      requested: version,
    });
  }
  return { protocolVersion: version, clientCapabilities: capabilities };
}
