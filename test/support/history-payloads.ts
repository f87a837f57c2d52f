/**
 * Reads what a workflow history holds, the way someone with access to Temporal but not to the
 * codec would: every bytes field rendered as UTF-8 text (so a JSON payload in clear shows, and an
 * encrypted one shows nothing readable), and every payload found with where it sits. Decoding a
 * history through a codec, payload by payload, is how the CLI and the Web UI show it with one.
 */
import type { Payload, PayloadCodec } from '@temporalio/common';

type History = { events?: unknown[] | null };

const isPayload = (value: unknown): value is Payload =>
  typeof value === 'object' &&
  value !== null &&
  !(value instanceof Uint8Array) &&
  'metadata' in value &&
  typeof (value as Payload).metadata === 'object' &&
  (value as Payload).metadata !== null &&
  'encoding' in (value as { metadata: object }).metadata;

/**
 * The history as JSON with every byte array shown as the text it holds. Walked by hand: a protobuf
 * message's own `toJSON` would turn its bytes into base64, where no text shows.
 */
export function visibleText(value: unknown): string {
  const plain = (v: unknown): unknown => {
    if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
    if (Array.isArray(v)) return v.map(plain);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).map(([key, child]) => [key, plain(child)]));
  };
  return JSON.stringify(plain(value));
}

/** Every payload of the history with its path (`events.3.workflowExecutionSignaledEventAttributes.input.payloads.0`). */
export function payloadsIn(history: History): Array<{ path: string; payload: Payload }> {
  const found: Array<{ path: string; payload: Payload }> = [];
  const walk = (value: unknown, path: string) => {
    if (isPayload(value)) return void found.push({ path, payload: value });
    if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return;
    for (const [key, child] of Object.entries(value)) walk(child, path ? `${path}.${key}` : key);
  };
  walk(history, '');
  return found;
}

export const encodingOf = (payload: Payload) => Buffer.from(payload.metadata?.encoding ?? []).toString('utf8');

/** A copy of the history with every payload decoded through `codec`, as the CLI and the Web UI show it. */
export async function decodedHistory(history: History, codec: PayloadCodec): Promise<unknown> {
  const copy = async (value: unknown): Promise<unknown> => {
    if (isPayload(value)) return (await codec.decode([value]))[0];
    if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value;
    if (Array.isArray(value)) return Promise.all(value.map(copy));
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await copy(v)] as const));
    return Object.fromEntries(entries);
  };
  return copy(history);
}
