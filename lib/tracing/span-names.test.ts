import { legSpanName, spanText } from './span-names';

describe('legSpanName', () => {
  it('names a span only after an MCP method', () => {
    expect(legSpanName('tools/call')).toBe('mcp tools/call');
    expect(legSpanName('resources/templates/list')).toBe('mcp resources/templates/list');
    expect(legSpanName(undefined)).toBe('mcp response');
    expect(legSpanName('x'.repeat(1_000_000))).toBe('mcp other');
    expect(legSpanName('tools/call ')).toBe('mcp other');
  });

  it('cuts what a client sent to 128 characters', () => {
    expect(spanText('n'.repeat(500_000))).toBe(`${'n'.repeat(128)}…`);
    expect(spanText('greet')).toBe('greet');
  });
});
