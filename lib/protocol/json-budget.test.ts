// Pins what the edge refuses before a message reaches Temporal or Postgres, and the paths it names.
import { INVALID_PARAMS } from './json-rpc-codes';
import { childPath, findJsonBudgetViolation, unstorableReason } from './json-budget';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { x: value };
  return value;
};

describe('unstorableReason', () => {
  it.each([
    ['a\u0000b', /NUL/],
    ['\ud800', /surrogate/],
    ['x\udc00', /surrogate/],
    ['\udc00\ud800', /surrogate/],
  ])('refuses %j', (text, reason) => {
    expect(unstorableReason(text)).toMatch(reason);
  });

  it.each(['plain', '😀 paired surrogates', 'ü', '', '\u0001 control characters are storable'])(
    'accepts %j',
    (text) => {
      expect(unstorableReason(text)).toBeUndefined();
    },
  );
});

describe('findJsonBudgetViolation', () => {
  it('names the path of a NUL inside arguments', () => {
    const error = findJsonBudgetViolation({ params: { arguments: { name: 'a\u0000' } } }, 64);
    expect(error?.code).toBe(INVALID_PARAMS);
    expect(error?.data).toEqual({ path: 'params.arguments.name' });
    expect(error?.message).toMatch(/params\.arguments\.name contains a NUL/);
  });

  it('names array indexes and odd keys in the path', () => {
    const error = findJsonBudgetViolation(
      { params: { inputResponses: { 'my key': { items: ['ok', '\ud800'] } } } },
      64,
    );
    expect(error?.data).toEqual({ path: 'params.inputResponses["my key"].items[1]' });
  });

  it('refuses an unstorable key', () => {
    const error = findJsonBudgetViolation({ params: { ['k\u0000']: 1 } }, 64);
    expect(error?.message).toMatch(/key of params\["k\\u0000"\]/);
  });

  it('refuses nesting deeper than the limit and accepts the limit itself', () => {
    expect(findJsonBudgetViolation(nested(10), 10)).toBeUndefined();
    const error = findJsonBudgetViolation(nested(11), 10);
    expect(error?.code).toBe(INVALID_PARAMS);
    expect(error?.data).toMatchObject({ maxDepth: 10 });
  });

  it('walks a hostile depth without overflowing the stack', () => {
    expect(findJsonBudgetViolation(nested(200_000), 64)?.code).toBe(INVALID_PARAMS);
  });

  it('accepts an ordinary request', () => {
    expect(
      findJsonBudgetViolation(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: { a: [1, { b: 'c' }] } } },
        64,
      ),
    ).toBeUndefined();
  });
});

describe('childPath', () => {
  it('joins identifiers with dots and quotes the rest', () => {
    expect(childPath('params', 'name')).toBe('params.name');
    expect(childPath('params', 3)).toBe('params[3]');
    expect(childPath('params', 'a-b')).toBe('params["a-b"]');
    expect(childPath('', 'params')).toBe('params');
  });
});
