/**
 * A client under test, connected: what every adapter (typescript-clients.ts, python-client.ts)
 * offers the scenarios (scenarios.ts). Each is connected with the same peers: it accepts a form
 * with `{ name: 'Ada' }` unless the message starts with `[decline]` (then it declines), samples
 * `A small change.`, and lists the one root `file:///src/checkout`.
 */
import type { Observation } from './observation';

export const PEERS = {
  name: 'Ada',
  declinePrefix: '[decline]',
  sampled: 'A small change.',
  root: { uri: 'file:///src/checkout', name: 'checkout' },
};

export interface ConnectedClient {
  listTools(): Promise<string[]>;
  call(name: string, args?: Record<string, unknown>): Promise<Observation>;
  close(): Promise<void>;
}

/** Connects to `url`, or says why this client cannot run here (a Python module not installed). */
export type Connect = (url: string) => Promise<ConnectedClient>;

/** What any client threw, as an observation: its class and code (numeric or the SDK's own). */
export function thrown(error: unknown): Observation {
  const e = error as { constructor?: { name?: string }; code?: unknown; message?: unknown };
  const code = typeof e?.code === 'number' || typeof e?.code === 'string' ? e.code : undefined;
  return {
    kind: 'error',
    name: e?.constructor?.name ?? typeof error,
    ...(code !== undefined ? { code } : {}),
    message: String(e?.message ?? error),
  };
}

/** A CallToolResult as an observation. */
export function resultOf(result: {
  content?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}): Observation {
  const blocks = Array.isArray(result.content) ? (result.content as Array<{ text?: string }>) : [];
  const pending = result._meta?.['io.durable-mcp/pending'] as { handle?: unknown } | undefined;
  return {
    kind: 'result',
    text: blocks.map((b) => b.text ?? '').join(' '),
    isError: result.isError === true,
    ...(typeof pending?.handle === 'string' ? { pendingHandle: pending.handle } : {}),
  };
}
