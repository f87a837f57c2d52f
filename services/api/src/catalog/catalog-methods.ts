/**
 * Discovery, listing and completion: answered directly from the loaded handler set, no exchange.
 * Both eras serve this catalog. List results are cacheable in 2026-07-28 and carry `ttlMs` and
 * `cacheScope`.
 */
import { CompleteRequestParamsSchema } from '@modelcontextprotocol/core';
import { type Completer, type HandlerSet } from '@durable-mcp/handlers';
import { findPrompt } from '../../../../lib/handler-set/lookup';
import { MODERN_PROTOCOL_VERSIONS } from '../../../../lib/protocol/modern';
import { TASKS_EXTENSION } from '../../../../lib/protocol/tasks';
import type { Era } from '../../../../lib/exchange/types';
import { invalidParams } from '../../../../lib/protocol/error-catalog';
import { parseParams } from '../../../../lib/protocol/parse-params';
import { AWAIT_ANSWER, servesAwaitAnswer } from './await-answer-tool';

const LIST_TTL_MS = 60_000;
const MAX_COMPLETIONS = 100;

/**
 * `listsChange`: whether the served tools, prompts and resources can change while the process runs
 * (the gateway's upstreams); then each says `listChanged`, that clients are told (on a
 * handshake-era session's GET stream, on a 2026-07-28 `subscriptions/listen`), and prompts and
 * resources are offered whatever the local set has: an upstream may list some at any time.
 */
export function serverCapabilities(handlers: HandlerSet, listsChange = false): Record<string, Record<string, unknown>> {
  const completers = [...(handlers.prompts ?? []), ...(handlers.resourceTemplates ?? [])].some((h) => h.complete);
  const changing = listsChange ? { listChanged: true } : {};
  return {
    tools: changing,
    ...(handlers.prompts?.length || listsChange ? { prompts: changing } : {}),
    ...(handlers.resources?.length || handlers.resourceTemplates?.length || listsChange ? { resources: changing } : {}),
    ...(completers ? { completions: {} } : {}),
    logging: {},
  };
}

/**
 * The tools as `tools/list` describes them. Where tasks are served (the 2026-07-28 wire, and
 * legacy sessions of 2025-11-25), a tool that may run as a task says so in
 * `execution.taskSupport`; older revisions have no tasks, so they are not told.
 */
export function listedTools(handlers: HandlerSet, withTaskSupport: boolean) {
  return handlers.tools.map(({ tool, taskSupport }) =>
    withTaskSupport && taskSupport && taskSupport !== 'forbidden'
      ? { ...tool, execution: { ...tool.execution, taskSupport } }
      : tool,
  );
}

/**
 * `era` picks what the catalog says of tasks: the Tasks extension is served on the 2026-07-28 wire
 * only. `listsChange`: see serverCapabilities.
 */
export function createCatalogMethods(handlers: HandlerSet, era: Era, listsChange = false) {
  const cacheable = (result: Record<string, unknown>) => ({ ...result, ttlMs: LIST_TTL_MS, cacheScope: 'public' });

  async function complete(params: unknown) {
    const request = parseParams(CompleteRequestParamsSchema, params);
    let completer: Completer | undefined;
    if (request.ref.type === 'ref/prompt') {
      const prompt = findPrompt(handlers, request.ref.name);
      if (!prompt) throw invalidParams(`Unknown prompt: ${request.ref.name}`, { path: 'params.ref.name' });
      completer = prompt.complete?.[request.argument.name];
    } else {
      const uri = request.ref.uri;
      const template = handlers.resourceTemplates?.find((h) => h.template.uriTemplate === uri);
      if (!template) throw invalidParams(`Unknown resource template: ${uri}`, { path: 'params.ref.uri' });
      completer = template.complete?.[request.argument.name];
    }
    const values = completer ? await completer(request.argument.value, request.context?.arguments ?? {}) : [];
    return {
      completion: {
        values: values.slice(0, MAX_COMPLETIONS),
        total: values.length,
        hasMore: values.length > MAX_COMPLETIONS,
      },
    };
  }

  const capabilities = serverCapabilities(handlers, listsChange);
  const methods = {
    'server/discover': () =>
      cacheable({
        supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
        // server/discover is the 2026-07-28 wire's: it advertises the Tasks extension (SEP-2663).
        capabilities: { ...capabilities, extensions: { [TASKS_EXTENSION]: {} } },
        ...(handlers.instructions ? { instructions: handlers.instructions } : {}),
      }),
    // The 2026-07-28 wire serves `await_answer` beside the handlers' tools (its pending results name it).
    'tools/list': () =>
      cacheable({
        tools: [
          ...listedTools(handlers, era === 'modern'),
          ...(era === 'modern' && servesAwaitAnswer(handlers) ? [AWAIT_ANSWER] : []),
        ],
      }),
    'prompts/list': () => cacheable({ prompts: (handlers.prompts ?? []).map((h) => h.prompt) }),
    'resources/list': () => cacheable({ resources: (handlers.resources ?? []).map((h) => h.resource) }),
    'resources/templates/list': () =>
      cacheable({
        resourceTemplates: (handlers.resourceTemplates ?? []).map((h) => h.template),
      }),
    'completion/complete': complete,
  } satisfies Record<string, (params: unknown) => unknown>;

  // A method is served only when the capability it belongs to is declared: a client must be able
  // to trust server/discover (a list that answers while its capability is absent is a contradiction).
  const REQUIRES: Partial<Record<keyof typeof methods, string>> = {
    'prompts/list': 'prompts',
    'resources/list': 'resources',
    'resources/templates/list': 'resources',
    'completion/complete': 'completions',
  };
  return Object.fromEntries(
    Object.entries(methods).filter(([method]) => {
      const capability = REQUIRES[method as keyof typeof methods];
      return capability === undefined || capability in capabilities;
    }),
  ) as Partial<typeof methods>;
}
