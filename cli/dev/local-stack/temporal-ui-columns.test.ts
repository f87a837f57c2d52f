import { runInNewContext } from 'node:vm';
import { EXCHANGE_LIST_COLUMNS, UI_COLUMNS_STORAGE_KEY, seedExchangeColumnsScript } from './temporal-ui-columns';

/** A browser's local storage, as far as the script uses it. */
function storage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    localStorage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
    },
  };
}

const columnsIn = (items: Map<string, string>) => JSON.parse(items.get(UI_COLUMNS_STORAGE_KEY) ?? '{}');

describe('the dev UI door’s column seed', () => {
  it('gives a browser with no columns the exchange columns for the namespace', () => {
    const browser = storage();
    runInNewContext(seedExchangeColumnsScript('default'), browser);
    expect(columnsIn(browser.items)).toEqual({ default: EXCHANGE_LIST_COLUMNS });
  });

  it('keeps columns the browser has for the namespace, and those of other namespaces', () => {
    const own = { default: [{ label: 'Status', pinned: true }], other: [{ label: 'End', pinned: false }] };
    const browser = storage({ [UI_COLUMNS_STORAGE_KEY]: JSON.stringify(own) });
    runInNewContext(seedExchangeColumnsScript('default'), browser);
    expect(columnsIn(browser.items)).toEqual(own);
    runInNewContext(seedExchangeColumnsScript('mcp-prod'), browser);
    expect(columnsIn(browser.items)).toEqual({ ...own, 'mcp-prod': EXCHANGE_LIST_COLUMNS });
  });

  it('leaves unreadable storage alone, and never closes the page’s script tag', () => {
    const browser = storage({ [UI_COLUMNS_STORAGE_KEY]: 'not json' });
    expect(() => runInNewContext(seedExchangeColumnsScript('default'), browser)).not.toThrow();
    expect(browser.items.get(UI_COLUMNS_STORAGE_KEY)).toBe('not json');
    expect(seedExchangeColumnsScript('</script><script>alert(1)')).not.toContain('</script>');
  });
});
