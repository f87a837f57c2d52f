// Pins the start-up table of Mcp-Param-* declarations: by tool, only tools that declare some, and
// an invalid annotation refused with its handler set and tool named.
import { setOfToolSchemas } from './test-sets';
import { toolParamHeaders } from './tool-param-headers';

const setOf = setOfToolSchemas;

describe('toolParamHeaders', () => {
  it('maps each declaring tool to its declarations', () => {
    const table = toolParamHeaders(setOf({}, { properties: { r: { type: 'string', 'x-mcp-header': 'R' } } }));
    expect([...table]).toEqual([['t1', [{ name: 'R', path: ['r'], type: 'string' }]]]);
  });

  it('refuses an invalid annotation, naming the set and the tool', () => {
    expect(() => toolParamHeaders(setOf({ properties: { r: { type: 'number', 'x-mcp-header': 'R' } } }))).toThrow(
      /^handler set test, tool t0: x-mcp-header at properties\.r must be on a string, integer or boolean parameter/,
    );
  });
});
