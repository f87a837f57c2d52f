/**
 * Label values with a bounded set, whatever clients send. A target label is the name a handler is
 * registered under (a tool or prompt name, a static resource's URI, a resource template's URI
 * template), never the string a request carried: an unknown target, or a fresh URI under a
 * template, adds no label value. A JSON-RPC code label is one of the codes the service defines;
 * any other code a handler chose is `other`.
 */
import type { ExchangeMethod } from '../exchange/types';
import { type HandlerSet } from '@durable-mcp/handlers';
import { findPrompt, findResource, findTool } from '../handler-set/lookup';
import {
  EXCHANGE_CANCELLED,
  EXCHANGE_EXPIRED,
  EXCHANGE_TERMINATED,
  ROUND_CAP_EXCEEDED,
} from '../protocol/exchange-errors';
import * as codes from '../protocol/json-rpc-codes';

/** The target label of a request no handler of the set serves. */
export const UNKNOWN_TARGET = '(unknown)';

/** The label of a target: the handler set's own name for it, or `(unknown)`. */
export function targetLabel(handlers: HandlerSet | undefined, method: ExchangeMethod, target: string): string {
  if (!handlers) return UNKNOWN_TARGET;
  switch (method) {
    case 'tools/call':
      return findTool(handlers, target)?.tool.name ?? UNKNOWN_TARGET;
    case 'prompts/get':
      return findPrompt(handlers, target)?.prompt.name ?? UNKNOWN_TARGET;
    case 'resources/read': {
      const match = findResource(handlers, target);
      if (!match) return UNKNOWN_TARGET;
      return match.kind === 'static' ? match.handler.resource.uri : match.handler.template.uriTemplate;
    }
  }
}

const KNOWN_CODES = new Set<number>([
  ...Object.values(codes),
  EXCHANGE_EXPIRED,
  ROUND_CAP_EXCEEDED,
  EXCHANGE_CANCELLED,
  EXCHANGE_TERMINATED,
]);

/** The label of a JSON-RPC error code: the code itself when the service defines it, else `other`. */
export function codeLabel(code: number): string {
  return KNOWN_CODES.has(code) ? String(code) : 'other';
}
