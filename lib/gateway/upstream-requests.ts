/**
 * What the gateway sends an upstream on its connection (upstream-client.ts): a round's call of one
 * of its tools, prompts or resources (`tools/call`, `prompts/get`, `resources/read`), each with the
 * answers to its last ask, its own `requestState`, the caller's client capabilities, the round's
 * idempotency key and the trace context in `_meta`; and its listings, page by page.
 *
 * A listing walks the upstream's pages itself (`cursor` after `cursor`), so it stops once it holds
 * as many entries as the gateway takes (`maxListed`): an upstream that lists more is cut there,
 * not refused. At most `MAX_LIST_PAGES` pages, as the official client's own walk, and a page that
 * repeats its cursor ends it; every page is one response, bounded as every response is (the
 * connection's `maxResultBytes` plus envelope, bounded-fetch.ts).
 */
import { CLIENT_CAPABILITIES_META_KEY, type Client, type Tool } from '@modelcontextprotocol/client';
import { context, propagation } from '@opentelemetry/api';
import type { Upstream } from '../upstreams/upstream-declaration';

/** Where the caller goes, for an upstream that reads it (`forwardCaller`). */
export const CALLER_META_KEY = 'io.durable-mcp/caller';
/** The SEP-3182 draft's name for a request's idempotency key, sent in `_meta`. */
export const IDEMPOTENCY_META_KEY = 'idempotencyKey';
/** The most pages one listing reads, as the official client's own walk (`listMaxPages`). */
export const MAX_LIST_PAGES = 64;

/** What a round calls at the upstream, in the upstream's own names. */
export type UpstreamTarget =
  /** The upstream's tool, as it last listed it. */
  | { method: 'tools/call'; tool: Tool; arguments: Record<string, unknown> }
  | { method: 'prompts/get'; name: string; arguments: Record<string, string> }
  | { method: 'resources/read'; uri: string };

export interface UpstreamCall {
  target: UpstreamTarget;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  clientCapabilities: Record<string, unknown>;
  idempotencyKey: string;
  caller?: Record<string, unknown>;
  signal?: AbortSignal;
}

export type UpstreamOutcome =
  | { kind: 'complete'; result: Record<string, unknown> }
  | { kind: 'input_required'; inputRequests: Record<string, unknown>; requestState?: string };

/** How logs, spans and errors name a target: the tool's or prompt's name, the resource's URI. */
export const targetName = (target: UpstreamTarget): string =>
  target.method === 'tools/call' ? target.tool.name : target.method === 'prompts/get' ? target.name : target.uri;

/** The active span's W3C trace context (none while traces are off). */
function traceContext(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

function withoutOutputSchema(tool: Tool): Tool {
  const { outputSchema: _checkedByTheCaller, ...rest } = tool;
  return rest;
}

/** Sends one round's call on `client` and reads what the upstream answered. */
export async function sendCall(client: Client, upstream: Upstream, call: UpstreamCall): Promise<UpstreamOutcome> {
  const { target } = call;
  const rounds = {
    ...(call.inputResponses && Object.keys(call.inputResponses).length > 0
      ? { inputResponses: call.inputResponses }
      : {}),
    ...(call.requestState !== undefined ? { requestState: call.requestState } : {}),
    _meta: {
      // The trace goes on at the upstream: `traceparent`/`tracestate`, as MCP carries them.
      ...traceContext(),
      [CLIENT_CAPABILITIES_META_KEY]: call.clientCapabilities,
      [IDEMPOTENCY_META_KEY]: call.idempotencyKey,
      ...(call.caller ? { [CALLER_META_KEY]: call.caller } : {}),
    },
  };
  const options = {
    timeout: upstream.callTimeoutMs,
    allowInputRequired: true,
    ...(call.signal ? { signal: call.signal } : {}),
  };
  let result: Record<string, unknown>;
  if (target.method === 'tools/call')
    result = (await client.callTool(
      { name: target.tool.name, arguments: target.arguments, ...rounds } as Parameters<Client['callTool']>[0],
      {
        ...options,
        // The client checks a result against the tool's output schema, an InputRequiredResult
        // too, which has no structured content: a tool with an output schema could never ask.
        // The result is carried, not checked, here; the caller's client checks it against the
        // schema the service lists. The input schema stays, for the headers it declares.
        toolDefinition: withoutOutputSchema(target.tool),
      } as Parameters<Client['callTool']>[1],
    )) as Record<string, unknown>;
  else if (target.method === 'prompts/get')
    result = (await client.getPrompt(
      { name: target.name, arguments: target.arguments, ...rounds } as Parameters<Client['getPrompt']>[0],
      options as Parameters<Client['getPrompt']>[1],
    )) as Record<string, unknown>;
  // Never from the client's cache: every round is the upstream's to answer, with its key.
  else
    result = (await client.readResource(
      { uri: target.uri, ...rounds } as Parameters<Client['readResource']>[0],
      {
        ...options,
        cacheMode: 'bypass',
      } as Parameters<Client['readResource']>[1],
    )) as Record<string, unknown>;
  if (result.resultType === 'input_required')
    return {
      kind: 'input_required',
      inputRequests: (result.inputRequests as Record<string, unknown> | undefined) ?? {},
      ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
    };
  return { kind: 'complete', result };
}

/** The listings other than tools', each under the capability that offers it. */
export const LISTINGS = {
  prompts: { method: 'prompts/list', capability: 'prompts' },
  resources: { method: 'resources/list', capability: 'resources' },
  resourceTemplates: { method: 'resources/templates/list', capability: 'resources' },
} as const;
export type ListingKind = keyof typeof LISTINGS;

/** What one listing read: its first `max` entries, and whether the upstream had more. */
export interface Listed {
  items: unknown[];
  cut: boolean;
}

/**
 * Reads `kind` page by page, up to `max` entries: none when the upstream does not declare the
 * capability that offers it.
 */
export async function listPages(client: Client, upstream: Upstream, kind: ListingKind, max: number): Promise<Listed> {
  const { method, capability } = LISTINGS[kind];
  if (!client.getServerCapabilities()?.[capability]) return { items: [], cut: false };
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = (await client.request(
      { method, params: cursor === undefined ? {} : { cursor } },
      { timeout: upstream.callTimeoutMs },
    )) as Record<string, unknown>;
    const entries = result[kind];
    if (Array.isArray(entries)) items.push(...(entries as unknown[]));
    if (items.length > max) return { items: items.slice(0, max), cut: true };
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === cursor) return { items, cut: false };
    cursor = next;
  }
  return { items, cut: true };
}
