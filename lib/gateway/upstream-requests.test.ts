import type { Client } from '@modelcontextprotocol/client';
import type { Upstream } from '../upstreams/upstream-declaration';
import { listPages, MAX_LIST_PAGES } from './upstream-requests';

const upstream = { name: 'notes', callTimeoutMs: 1_000 } as Upstream;

/** A connection whose upstream declares `capabilities` and answers each page request with `page(cursor)`. */
function connection(capabilities: Record<string, unknown>, page: (cursor?: string) => Record<string, unknown>) {
  const asked: Array<{ method: string; cursor?: string }> = [];
  const client = {
    getServerCapabilities: () => capabilities,
    request: async ({ method, params }: { method: string; params: { cursor?: string } }) => {
      asked.push({ method, ...(params.cursor !== undefined ? { cursor: params.cursor } : {}) });
      return page(params.cursor);
    },
  } as unknown as Client;
  return { client, asked };
}

const prompts = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ name: `p${from + i}` }));

describe("reading an upstream's listing page by page", () => {
  it('follows each cursor to the last page', async () => {
    const { client, asked } = connection({ prompts: {} }, (cursor) =>
      cursor === undefined ? { prompts: prompts(0, 2), nextCursor: 'c2' } : { prompts: prompts(2, 1) },
    );
    expect(await listPages(client, upstream, 'prompts', 10)).toEqual({ items: prompts(0, 3), cut: false });
    expect(asked).toEqual([{ method: 'prompts/list' }, { method: 'prompts/list', cursor: 'c2' }]);
  });

  it('stops once it holds more than it takes, and says the listing was cut', async () => {
    const { client, asked } = connection({ resources: {} }, (cursor) => ({
      resources: [
        { uri: `r://${cursor ?? 0}`, name: 'r' },
        { uri: `r://${cursor ?? 0}b`, name: 'r' },
      ],
      nextCursor: `${Number(cursor ?? 0) + 1}`,
    }));
    const listed = await listPages(client, upstream, 'resources', 3);
    expect(listed.cut).toBe(true);
    expect(listed.items).toHaveLength(3);
    expect(asked).toHaveLength(2);
  });

  it('asks nothing of an upstream that does not declare the capability', async () => {
    const { client, asked } = connection({ tools: {} }, () => ({ resourceTemplates: [] }));
    expect(await listPages(client, upstream, 'resourceTemplates', 10)).toEqual({ items: [], cut: false });
    expect(asked).toEqual([]);
  });

  it('ends on a cursor that repeats, and after the page limit of a listing that never ends', async () => {
    const repeating = connection({ prompts: {} }, () => ({ prompts: prompts(0, 1), nextCursor: 'same' }));
    expect((await listPages(repeating.client, upstream, 'prompts', 100)).items).toHaveLength(2);
    const endless = connection({ prompts: {} }, (cursor) => ({ prompts: [], nextCursor: `${cursor ?? ''}x` }));
    expect(await listPages(endless.client, upstream, 'prompts', 100)).toEqual({ items: [], cut: true });
    expect(endless.asked).toHaveLength(MAX_LIST_PAGES);
  });
});
