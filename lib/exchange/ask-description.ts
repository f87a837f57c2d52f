/**
 * What an ask asks, as operators may see it in the Temporal UI: for each embedded request its key
 * and kind, and for an elicitation the server's own question (its message and the names of the
 * fields it asks for). Everything is bounded, so a handler that asks for a lot cannot grow the
 * workflow's history, and nothing of an answer, an argument's value or a URL is kept.
 * The round's activity builds it; the workflow renders it (exchange-details.ts). Pure and free of
 * Node imports: the workflow bundle may import it.
 */
import type { AskDescription, AskedRequest } from './types';

/** At most this many characters of an elicitation's message. */
export const MAX_MESSAGE_CHARS = 200;
/** At most this many field names per request, and requests per ask. */
export const MAX_FIELDS = 20;
export const MAX_REQUESTS = 20;
/** At most this many characters of a key, a field name or a method. */
export const MAX_NAME_CHARS = 64;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `text` on one line (control characters and line breaks become spaces, runs of spaces one), cut
 * to `max` characters (code points, so no surrogate pair is split) with an ellipsis when cut.
 */
export function clip(text: string, max: number): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

function describeRequest(key: string, request: unknown): AskedRequest {
  const method = isObject(request) && typeof request.method === 'string' ? request.method : 'unknown';
  const described: AskedRequest = { key: clip(key, MAX_NAME_CHARS), method: clip(method, MAX_NAME_CHARS) };
  if (method !== 'elicitation/create' || !isObject(request)) return described;
  const params = isObject(request.params) ? request.params : {};
  described.mode = params.mode === 'url' ? 'url' : 'form';
  if (typeof params.message === 'string') described.message = clip(params.message, MAX_MESSAGE_CHARS);
  const properties = isObject(params.requestedSchema) ? params.requestedSchema.properties : undefined;
  if (isObject(properties)) {
    const names = Object.keys(properties);
    described.fields = names.slice(0, MAX_FIELDS).map((name) => clip(name, MAX_NAME_CHARS));
    if (names.length > MAX_FIELDS) described.moreFields = names.length - MAX_FIELDS;
  }
  return described;
}

/** The bounded description of an ask's `inputRequests`, recorded at `askedAt` (epoch ms). */
export function describeAsk(inputRequests: Record<string, unknown>, askedAt: number): AskDescription {
  const entries = Object.entries(inputRequests);
  return {
    askedAt,
    requests: entries.slice(0, MAX_REQUESTS).map(([key, request]) => describeRequest(key, request)),
    ...(entries.length > MAX_REQUESTS ? { moreRequests: entries.length - MAX_REQUESTS } : {}),
  };
}
