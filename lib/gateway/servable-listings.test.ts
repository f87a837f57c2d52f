import type { Upstream } from '../upstreams/upstream-declaration';
import { servablePrompts, servableResources, servableTemplates } from './servable-listings';

const upstream = { name: 'notes', toolPrefix: 'notes_' } as Upstream;

function warnings() {
  const said: Array<Record<string, unknown>> = [];
  return { said, log: { warn: (fields: Record<string, unknown>) => void said.push(fields) } };
}

describe("what of an upstream's listing the gateway serves", () => {
  it('leaves out a template whose uriTemplate does not parse, saying why', () => {
    const { said, log } = warnings();
    const kept = servableTemplates(
      [
        { uriTemplate: 'notes://items/{id}', name: 'item' },
        { uriTemplate: 'notes://broken/{id', name: 'broken' },
        { name: 'no template' },
      ],
      upstream,
      log,
    );
    expect(kept.map((t) => t.name)).toEqual(['item']);
    expect(said.map((w) => w.uriTemplate)).toEqual(['notes://broken/{id', undefined]);
    expect(said[0]!.reason).toMatch(/does not parse/);
  });

  it('leaves out a prompt or resource that is not one', () => {
    const { said, log } = warnings();
    expect(servablePrompts([{ name: 'review' }, { title: 'nameless' }], upstream, log)).toEqual([{ name: 'review' }]);
    expect(servableResources([{ uri: 'notes://a', name: 'a' }, { name: 'no uri' }], upstream, log)).toEqual([
      { uri: 'notes://a', name: 'a' },
    ]);
    expect(said).toHaveLength(2);
  });
});
