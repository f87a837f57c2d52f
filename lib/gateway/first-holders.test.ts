import { firstHolders } from './first-holders';

const entries = (upstream: string, ...keys: string[]) => ({
  upstream,
  handlers: keys.map((key) => ({ key, upstream })),
});

describe('who serves a name several list', () => {
  it('keeps the local holder, then the first upstream in declaration order, and says each shadowed entry', () => {
    const shadowed: string[] = [];
    const served = firstHolders(
      [entries('a', 'notes://x', 'notes://y'), entries('b', 'notes://y', 'notes://z', 'notes://local')],
      (h) => h.key,
      new Set(['notes://local']),
      (upstream, key) => shadowed.push(`${upstream} ${key}`),
    );
    expect(served).toEqual([
      { key: 'notes://x', upstream: 'a' },
      { key: 'notes://y', upstream: 'a' },
      { key: 'notes://z', upstream: 'b' },
    ]);
    expect(shadowed).toEqual(['b notes://y', 'b notes://local']);
  });

  it('lets an entry it skips take no name, so a later holder serves it', () => {
    const served = firstHolders(
      [entries('a', 'delete'), entries('b', 'delete')],
      (h) => h.key,
      new Set(),
      () => undefined,
      (upstream) => upstream === 'a',
    );
    expect(served).toEqual([{ key: 'delete', upstream: 'b' }]);
  });

  it('keeps the first of one upstream listing a name twice', () => {
    const shadowed: string[] = [];
    const served = firstHolders(
      [entries('a', 'p', 'p')],
      (h) => h.key,
      new Set(),
      (u, k) => shadowed.push(k),
    );
    expect(served).toHaveLength(1);
    expect(shadowed).toEqual(['p']);
  });
});
