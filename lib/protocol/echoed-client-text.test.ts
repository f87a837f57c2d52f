import { echoed, MAX_ECHOED_CHARS } from './echoed-client-text';

describe('echoed', () => {
  it('keeps a short string as it is', () => {
    expect(echoed('tools/list')).toBe('tools/list');
    expect(echoed('x'.repeat(MAX_ECHOED_CHARS))).toBe('x'.repeat(MAX_ECHOED_CHARS));
  });

  it('cuts a long string to the limit and marks the cut', () => {
    expect(echoed('y'.repeat(750_000))).toBe(`${'y'.repeat(MAX_ECHOED_CHARS)}…`);
    expect(echoed('abcdef', 3)).toBe('abc…');
  });
});
