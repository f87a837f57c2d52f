// Pins which x-mcp-header annotations a tool may carry (SEP-2243 "Schema Extension"): tokens, the
// three types, case-insensitive uniqueness, and reachability through `properties` keys only.
import { InvalidParamHeaderDeclaration, paramHeadersOf } from './param-header-declarations';

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});
const refusal = (inputSchema: unknown) => {
  try {
    paramHeadersOf(inputSchema);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParamHeaderDeclaration);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('paramHeadersOf', () => {
  it('finds the annotated parameters in schema order, nested ones by their properties chain', () => {
    expect(
      paramHeadersOf(
        schema({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          query: { type: 'string' },
          target: schema({ tenant: { type: 'integer', 'x-mcp-header': 'Tenant' } }),
          dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
        }),
      ),
    ).toEqual([
      { name: 'Region', path: ['region'], type: 'string' },
      { name: 'Tenant', path: ['target', 'tenant'], type: 'integer' },
      { name: 'Dry-Run', path: ['dryRun'], type: 'boolean' },
    ]);
    expect(paramHeadersOf({ type: 'object' })).toEqual([]);
    expect(paramHeadersOf(undefined)).toEqual([]);
  });

  it('refuses names that are not HTTP tokens', () => {
    for (const name of ['', 'My Region', 'Region:Primary', 'Région', 'Region\t1', 7]) {
      expect(refusal(schema({ v: { type: 'string', 'x-mcp-header': name } }))).toContain(
        'at properties.v must be a non-empty HTTP token',
      );
    }
  });

  it('refuses annotations on number, object, array, null or untyped parameters', () => {
    for (const type of ['number', 'object', 'array', 'null', undefined, ['string', 'null']]) {
      expect(refusal(schema({ v: { type, 'x-mcp-header': 'V' } }))).toContain(
        'must be on a string, integer or boolean parameter',
      );
    }
  });

  it('refuses a name used twice, in any case', () => {
    expect(
      refusal(
        schema({ a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }),
      ),
    ).toBe("x-mcp-header at properties.b 'myfield' repeats 'MyField' (names are case-insensitive)");
  });

  it('refuses annotations not reached through properties keys alone', () => {
    const annotated = { type: 'string', 'x-mcp-header': 'V' };
    for (const unreachable of [
      { type: 'string', 'x-mcp-header': 'Root' },
      schema({ list: { type: 'array', items: annotated } }),
      schema({}, { oneOf: [schema({ v: annotated })] }),
      schema({}, { if: schema({ v: annotated }) }),
      schema({ v: { $ref: '#/$defs/v' } }, { $defs: { v: annotated } }),
      schema({}, { additionalProperties: annotated }),
      schema({}, { patternProperties: { '^x': annotated } }),
    ]) {
      expect(refusal(unreachable)).toContain(
        'is not on a property reached from the root through "properties" keys only',
      );
    }
  });

  it('reads data keywords as data', () => {
    expect(paramHeadersOf(schema({ v: { type: 'object', default: { 'x-mcp-header': 'X' } } }))).toEqual([]);
  });
});
