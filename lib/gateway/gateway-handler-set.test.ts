import type {
  HandlerSet,
  PromptHandler,
  ResourceHandler,
  ResourceTemplateHandler,
  ToolHandler,
} from '@durable-mcp/handlers';
import { gatewayHandlerSet } from './gateway-handler-set';
import type { UpstreamCatalog } from './upstream-catalog';
import { findPrompt, findResource } from '../handler-set/lookup';
import { firstHolders } from './first-holders';
import type { ListKind } from '../handler-set/list-changes';

const prompt = (name: string, from: string): PromptHandler => ({
  prompt: { name, description: from },
  run: () => ({ messages: [] }),
});
const resource = (uri: string, from: string): ResourceHandler => ({
  resource: { uri, name: from },
  read: () => ({ contents: [] }),
});
const template = (uriTemplate: string, from: string): ResourceTemplateHandler => ({
  template: { uriTemplate, name: from },
  read: () => ({ contents: [] }),
});

/** A catalog of one upstream whose offer a test changes, merged as the real catalog merges (first-holders.ts). */
function fakeCatalog() {
  const offer = {
    tools: [] as ToolHandler[],
    prompts: [] as PromptHandler[],
    resources: [] as ResourceHandler[],
    resourceTemplates: [] as ResourceTemplateHandler[],
  };
  const listeners: Array<() => void> = [];
  const merged =
    <H>(handlers: () => H[], key: (h: H) => string) =>
    (taken: ReadonlySet<string>) =>
      firstHolders([{ upstream: 'notes', handlers: handlers() }], key, taken, () => undefined);
  const catalog = {
    tools: merged(
      () => offer.tools,
      (h) => h.tool.name,
    ),
    prompts: merged(
      () => offer.prompts,
      (h) => h.prompt.name,
    ),
    resources: merged(
      () => offer.resources,
      (h) => h.resource.uri,
    ),
    resourceTemplates: merged(
      () => offer.resourceTemplates,
      (h) => h.template.uriTemplate,
    ),
    onChange: (listener: () => void) => void listeners.push(listener),
  } as unknown as UpstreamCatalog;
  return { catalog, offer, changed: () => listeners.forEach((listener) => listener()) };
}

const local: HandlerSet = {
  name: 'local',
  tools: [],
  prompts: [prompt('notes_review', 'local')],
  resources: [resource('notes://shared', 'local')],
  resourceTemplates: [template('notes://local/{id}', 'local')],
};

describe('the set a gateway serves', () => {
  it('serves the local prompts and resources first, then the upstream ones not clashing, as lookup routes them', () => {
    const { catalog, offer, changed } = fakeCatalog();
    const { set } = gatewayHandlerSet(local, catalog);
    offer.prompts = [prompt('notes_review', 'upstream'), prompt('notes_survey', 'upstream')];
    offer.resources = [resource('notes://shared', 'upstream'), resource('notes://readme', 'upstream')];
    offer.resourceTemplates = [template('notes://local/{id}', 'upstream'), template('notes://items/{id}', 'upstream')];
    changed();

    expect(set.prompts!.map((h) => [h.prompt.name, h.prompt.description])).toEqual([
      ['notes_review', 'local'],
      ['notes_survey', 'upstream'],
    ]);
    expect(findPrompt(set, 'notes_review')?.prompt.description).toBe('local');
    const routed = (uri: string) => {
      const match = findResource(set, uri);
      return match && (match.kind === 'static' ? match.handler.resource.name : match.handler.template.name);
    };
    expect(routed('notes://shared')).toBe('local');
    expect(routed('notes://readme')).toBe('upstream');
    expect(routed('notes://local/1')).toBe('local');
    expect(routed('notes://items/1')).toBe('upstream');
    expect(routed('other://nowhere')).toBeUndefined();
  });

  it('announces each list that changed, and only those', () => {
    const { catalog, offer, changed } = fakeCatalog();
    const { changes } = gatewayHandlerSet(local, catalog);
    const told: ListKind[] = [];
    changes.subscribe((kind) => told.push(kind));

    offer.prompts = [prompt('notes_survey', 'upstream')];
    changed();
    expect(told).toEqual(['prompts']);

    offer.resourceTemplates = [template('notes://items/{id}', 'upstream')];
    // A prompt the local set shadows changes nothing a client is listed.
    offer.prompts = [prompt('notes_survey', 'upstream'), prompt('notes_review', 'upstream')];
    changed();
    expect(told).toEqual(['prompts', 'resources']);

    changed();
    expect(told).toHaveLength(2);
  });
});
