/**
 * An upstream's calls as a round makes them (of a tool, a prompt or a resource alike): retried when
 * the failure says nothing reached the server's logic or it may go better a moment later (a refused
 * or dropped connection, a timeout, a 5xx, 408 or 429), up to the upstream's `retries`, backing
 * off; never when the server answered (its JSON-RPC error is its answer) or refused the gateway
 * (another 4xx), or its answer was too large. Every attempt carries the round's idempotency key, so a retry is the same call to a server
 * that dedupes. Behind a circuit breaker per upstream and process (circuit-breaker.ts), and counted
 * in the worker's metrics.
 */
import { SdkHttpError } from '@modelcontextprotocol/client';
import { SpanKind } from '@opentelemetry/api';
import { inSpan } from '../tracing/in-span';
import { observeUpstreamCall, observeUpstreamCircuit } from '../metrics/upstream-metrics';
import { cutAtTheLimit, UpstreamResponseTooLarge } from './bounded-fetch';
import { createCircuitBreaker } from './circuit-breaker';
import { retryPauseMs } from '../upstreams/call-budget';
import { UpstreamTokenRefused } from './upstream-credentials';
import type { Upstream } from '../upstreams/upstream-declaration';
import { UpstreamProtocolError, type UpstreamClient } from './upstream-client';
import { targetName, type UpstreamTarget } from './upstream-requests';

export class UpstreamCircuitOpen extends Error {
  override readonly name = 'UpstreamCircuitOpen';
}

/**
 * One attempt as a client span (`upstream <name> tools/call`, `prompts/get` or `resources/read`), a
 * child of the handler's run when traces are on; the call carries its context to the upstream
 * (upstream-requests.ts), so the trace continues there. A no-op span otherwise.
 */
function upstreamSpan<T>(upstream: string, target: UpstreamTarget, attempt: number, run: () => Promise<T>): Promise<T> {
  const attributes = { 'mcp.upstream': upstream, 'mcp.target': targetName(target), 'mcp.attempt': attempt + 1 };
  return inSpan(`upstream ${upstream} ${target.method}`, { kind: SpanKind.CLIENT, attributes }, run, failureReason);
}

/** Why a call failed, in the words its caller reads: the HTTP status first when there was one. */
export function failureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof SdkHttpError ? `HTTP ${error.status}: ${message}` : message;
}

/** Whether a failed call may be made again. */
export function retryable(error: unknown): boolean {
  if (
    error instanceof UpstreamProtocolError ||
    error instanceof UpstreamResponseTooLarge ||
    error instanceof UpstreamTokenRefused
  )
    return false;
  // 404: a session a restarted server no longer knows; the connection is dropped, and the next try opens another.
  if (error instanceof SdkHttpError)
    return error.status >= 500 || error.status === 408 || error.status === 429 || error.status === 404;
  return true;
}

export function guardedUpstreamClient(
  upstream: Upstream,
  client: UpstreamClient,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): UpstreamClient {
  const circuit = createCircuitBreaker({ failuresToOpen: upstream.circuitFailures, openMs: upstream.circuitOpenMs });
  const report = () => observeUpstreamCircuit(upstream.name, circuit.state() === 'open');
  return {
    listTools: () => client.listTools(),
    listOthers: (max) => client.listOthers(max),
    onListsChanged: (listener) => client.onListsChanged(listener),
    listenForListChanges: (signal) => client.listenForListChanges(signal),
    close: () => client.close(),
    async call(call) {
      for (let attempt = 0; ; attempt++) {
        if (!circuit.allow()) {
          observeUpstreamCall(upstream.name, 'circuit_open');
          const at = circuit.retryAt();
          throw new UpstreamCircuitOpen(
            `its circuit is open after ${upstream.circuitFailures} failed calls in a row${at ? `, until ${new Date(at).toISOString()}` : ''}`,
          );
        }
        const started = Date.now();
        try {
          // An answer past its limit fails the attempt at once, a streamed one too (bounded-fetch.ts).
          const outcome = await upstreamSpan(upstream.name, call.target, attempt, () =>
            cutAtTheLimit(call.signal, (signal) => client.call({ ...call, signal })),
          );
          circuit.success();
          observeUpstreamCall(upstream.name, outcome.kind === 'complete' ? 'result' : 'ask', Date.now() - started);
          return outcome;
        } catch (error) {
          const answered = error instanceof UpstreamProtocolError;
          // The caller's own cancel says nothing of the upstream's health.
          const cancelled = call.signal?.aborted === true;
          if (answered) circuit.success();
          else if (!cancelled) circuit.failure();
          observeUpstreamCall(upstream.name, answered ? 'protocol_error' : 'failed', Date.now() - started);
          if (attempt >= upstream.retries || !retryable(error) || call.signal?.aborted) throw error;
          await sleep(retryPauseMs(attempt));
        } finally {
          report();
        }
      }
    },
  };
}
