import { parseUpstreamFile } from '../upstreams/upstream-declaration';
import { servable, unservableReason } from './servable-tools';

const [shop] = parseUpstreamFile(
  JSON.stringify({ upstreams: [{ name: 'shop', url: 'http://shop/mcp', toolPrefix: 'shop_' }] }),
  {},
  'test',
);
const upstream = shop!;

const fine = { name: 'add', inputSchema: { type: 'object' as const, properties: { a: { type: 'number' } } } };
const uncompilable = { name: 'broken', inputSchema: { type: 'object' as const, properties: { a: { type: 'numbr' } } } };
const badHeader = {
  name: 'headed',
  inputSchema: { type: 'object' as const, properties: { r: { type: 'object', 'x-mcp-header': 'R' } } },
};
const notATool = { name: 'nameless', inputSchema: { type: 'array' } } as unknown as typeof fine;

describe('the upstream tools the gateway serves', () => {
  it("takes a tool that passes the API's checks under its prefixed name", () => {
    expect(unservableReason(upstream, fine)).toBeUndefined();
  });

  it('leaves out, saying why, a tool whose schema does not compile, declares a bad header or is not a tool', () => {
    expect(unservableReason(upstream, uncompilable)).toMatch(
      /^handler set shop, tool shop_broken: inputSchema does not compile/,
    );
    expect(unservableReason(upstream, badHeader)).toMatch(/tool shop_headed: x-mcp-header at properties\.r/);
    expect(unservableReason(upstream, notATool)).toBe('its description is not a valid tool');
  });

  it('serves the rest of the listing, and warns once for each tool left out', () => {
    const warned: Array<Record<string, unknown>> = [];
    const log = { warn: (fields: Record<string, unknown>) => void warned.push(fields) };
    expect(servable([fine, uncompilable, badHeader, notATool], upstream, log)).toEqual([fine]);
    expect(warned.map((fields) => fields.tool)).toEqual(['broken', 'headed', 'nameless']);
    expect(warned.every((fields) => fields.upstream === 'shop' && typeof fields.reason === 'string')).toBe(true);
  });
});
