/**
 * A 2026-07-28 exchange method's params (`tools/call`, `prompts/get`, `resources/read`), read once
 * into one typed value: the original request, checked against the SDK's schema for its method
 * (lib/protocol/original-request.ts), and the retry fields (`inputResponses`, `requestState`). The later
 * steps (the handler's lookup, the arguments check, the task policy, the leg) receive this value
 * and never read the raw params again. The envelope (`_meta`, the headers) was read before it, by
 * validate-request.ts, which the request ladder checks first.
 */
import { z } from 'zod';
import type { ExchangeMethod, OriginalRequest } from '../../../../lib/exchange/types';
import { readOriginalRequest } from '../../../../lib/protocol/original-request';
import { parseParams } from '../../../../lib/protocol/parse-params';

/** The longest idempotency key taken (the SEP-3182 draft leaves it to the server). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const RetryFieldsSchema = z.object({
  inputResponses: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  requestState: z.string().min(1).optional(),
  idempotencyKey: z.string().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH).optional(),
});

export interface ModernCall {
  request: OriginalRequest;
  /** The answers a retry carries, keyed as they were asked. */
  inputResponses?: Record<string, Record<string, unknown>>;
  /** The requestState a retry echoes. */
  requestState?: string;
  /**
   * The client's key for this call (the SEP-3182 draft's `params.idempotencyKey`): a first leg with
   * a key its caller used before joins that call's exchange; retries carry their requestState instead.
   */
  idempotencyKey?: string;
}

/** Reads an exchange method's params: the original request first, then the retry fields (each refusal names its path). */
export function readModernCall(method: ExchangeMethod, params: unknown): ModernCall {
  const request = readOriginalRequest(method, params);
  const { inputResponses, requestState, idempotencyKey } = parseParams(RetryFieldsSchema, params);
  return {
    request,
    ...(inputResponses !== undefined ? { inputResponses } : {}),
    ...(requestState !== undefined ? { requestState } : {}),
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
  };
}
