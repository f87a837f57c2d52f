/**
 * The original request of an exchange method (`tools/call`, `prompts/get`, `resources/read`): the
 * same on both protocol eras. (An unknown target is refused by `requireHandler`, lib/handler-set/lookup.ts.)
 */
import {
  CallToolRequestParamsSchema,
  GetPromptRequestParamsSchema,
  ReadResourceRequestParamsSchema,
} from '@modelcontextprotocol/core';
import type { ExchangeMethod, OriginalRequest } from '../exchange/types';
import { parseParams } from './parse-params';

/** Reads the original request of each exchange method: its target and the params that define it. */
const ORIGINAL: Record<ExchangeMethod, (params: unknown) => OriginalRequest> = {
  'tools/call': (params) => {
    const { name, arguments: args } = parseParams(CallToolRequestParamsSchema, params);
    return { method: 'tools/call', target: name, params: { name, arguments: args ?? {} } };
  },
  'prompts/get': (params) => {
    const { name, arguments: args } = parseParams(GetPromptRequestParamsSchema, params);
    return { method: 'prompts/get', target: name, params: { name, arguments: args ?? {} } };
  },
  'resources/read': (params) => {
    const { uri } = parseParams(ReadResourceRequestParamsSchema, params);
    return { method: 'resources/read', target: uri, params: { uri } };
  },
};

/** The original request of an exchange method, validated against the SDK's schema for it. */
export function readOriginalRequest(method: ExchangeMethod, params: unknown): OriginalRequest {
  return ORIGINAL[method](params);
}
