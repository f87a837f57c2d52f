/**
 * How the SDK's `tools/call` ends a call that did not return a result, mapped onto what
 * durable-mcp does with what a handler throws (a `ProtocolError` of ours is a JSON-RPC error,
 * anything else an `isError` result).
 */
import {
  ProtocolError as SdkProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import { answerError } from '../answer-error';
import { ProtocolError } from '../protocol-error';

/**
 * What the SDK answers when its `requestState.verify` hook throws: `-32602`, outside the
 * tool-error net, so it is a JSON-RPC error and not a tool result.
 */
export function invalidRequestState(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', {
    reason: 'invalid_request_state',
  });
}

/**
 * What the SDK makes of anything its validation or the tool throws: an `isError` result with the
 * error's message, the SDK's own `ProtocolError` included, except `UrlElicitationRequired` (-32042),
 * which it lets through as the JSON-RPC error and which is ours to throw here.
 */
export function toolError(error: unknown): CallToolResult {
  if (error instanceof SdkProtocolError && error.code === ProtocolErrorCode.UrlElicitationRequired) {
    throw new ProtocolError(error.code, error.message, error.data);
  }
  return { content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true };
}

/**
 * A server-to-client request a tool tried to send (`ctx.mcpReq.send`, `elicitInput`,
 * `requestSampling`): refused as the SDK refuses it on a 2026-07-28 request, since a round runs in a
 * worker and has no connection to push on.
 */
export function pushRefused(method: string): SdkError {
  return new SdkError(
    SdkErrorCode.MethodNotSupportedByProtocolVersion,
    `Server-to-client requests are not available on durable-mcp: '${method}' cannot be sent. ` +
      'Return inputRequired({ ... }) from the handler instead.',
    { method, era: '2026-07-28' },
  );
}

/**
 * The SDK's 2025-era shim ends the call when a client answers an ask's request with a JSON-RPC
 * error; durable-mcp hands the error to the handler as the answer, which a tool written for the SDK
 * does not read (it would ask again until the round cap). The error to end the call with, if any
 * answer is one.
 */
export function failedAnswer(inputResponses: Record<string, unknown>): Error | undefined {
  for (const key of Object.keys(inputResponses)) {
    const failed = answerError(inputResponses, key);
    if (failed) return new Error(`Fulfilling input required by 'tools/call' failed: ${failed.message}`);
  }
  return undefined;
}
