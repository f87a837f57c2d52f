/**
 * What the conformance fixtures share: the exact payloads the suite compares against, and a few
 * small readers for answers and state. Answers and state arrive from the client, so every reader
 * returns undefined for anything it does not recognise and the handler asks again.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { InputResponseView } from '@durable-mcp/handlers';

/** A 1x1 PNG. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** An empty WAV. */
export const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

export const NO_ARGUMENTS = { type: 'object' as const, properties: {} };

export const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The schema of a one-field string form, e.g. `{ name: string }`, the field required. */
export function stringForm(field: string) {
  return { type: 'object' as const, properties: { [field]: { type: 'string' as const } }, required: [field] };
}

/** The schema of the `{ ok: boolean }` confirmation form. */
export const CONFIRM_FORM = {
  type: 'object' as const,
  properties: { ok: { type: 'boolean' as const } },
  required: ['ok'],
};

/** An accepted answer's string field, if it is one. */
export function acceptedString(view: InputResponseView, field: string): string | undefined {
  if (view.kind !== 'elicit' || view.action !== 'accept') return undefined;
  const value = view.content?.[field];
  return typeof value === 'string' ? value : undefined;
}

/** Whether the person turned the form down (decline or cancel) rather than answering it. */
export const refused = (view: InputResponseView): boolean => view.kind === 'elicit' && view.action !== 'accept';

/** The text of a sampling answer (its text blocks, joined), if it has any. */
export function sampledText(view: InputResponseView): string | undefined {
  if (view.kind !== 'sampling') return undefined;
  const content: unknown = view.result.content;
  const blocks = Array.isArray(content) ? content : [content];
  const texts = blocks.flatMap((block) => {
    const { type, text: value } = (block ?? {}) as { type?: unknown; text?: unknown };
    return type === 'text' && typeof value === 'string' ? [value] : [];
  });
  return texts.length ? texts.join(' ') : undefined;
}

/** The URIs of a roots answer, if every root has one. */
export function rootUris(view: InputResponseView): string[] | undefined {
  if (view.kind !== 'roots') return undefined;
  const uris = view.roots.map((root) => (root as { uri?: unknown }).uri);
  return uris.every((uri): uri is string => typeof uri === 'string') ? uris : undefined;
}

/** The handler's own state, parsed; undefined when there is none or it is not a JSON object. */
export function readState<T extends object>(requestState: string | undefined): Partial<T> | undefined {
  if (requestState === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(requestState);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}
