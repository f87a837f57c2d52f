import { checkRequestedSchema, readRequestedSchema } from './requested-schema';

const schemaOf = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});
const paths = (schema: unknown) => checkRequestedSchema(schema).map((problem) => problem.path);

describe('requested schema', () => {
  it('reads every kind of the restricted form into its field', () => {
    const { fields, problems } = readRequestedSchema(
      schemaOf(
        {
          reason: { type: 'string', title: 'Reason', minLength: 3, maxLength: 200, default: 'late' },
          contact: { type: 'string', format: 'email' },
          amount: { type: 'number', minimum: 0, maximum: 500 },
          count: { type: 'integer' },
          notify: { type: 'boolean', default: true },
          plain: { type: 'string', enum: ['a', 'b'] },
          titled: { type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }] },
          legacy: { type: 'string', enum: ['x', 'y'], enumNames: ['Ex', 'Why'] },
          tags: { type: 'array', items: { type: 'string', enum: ['t1', 't2'] }, minItems: 1, maxItems: 2 },
          regions: { type: 'array', items: { anyOf: [{ const: 'us', title: 'United States' }] }, default: ['us'] },
        },
        { required: ['reason', 'amount'], $schema: 'https://json-schema.org/draft/2020-12/schema' },
      ),
    );
    expect(problems).toEqual([]);
    expect(fields.map((field) => [field.name, field.kind, field.required])).toEqual([
      ['reason', 'text', true],
      ['contact', 'text', false],
      ['amount', 'number', true],
      ['count', 'number', false],
      ['notify', 'boolean', false],
      ['plain', 'choice', false],
      ['titled', 'choice', false],
      ['legacy', 'choice', false],
      ['tags', 'choices', false],
      ['regions', 'choices', false],
    ]);
    expect(fields[0]).toEqual({
      name: 'reason',
      kind: 'text',
      required: true,
      title: 'Reason',
      description: undefined,
      minLength: 3,
      maxLength: 200,
      default: 'late',
    });
    expect(fields[3]).toMatchObject({ kind: 'number', integer: true });
    expect(fields[2]).toMatchObject({ integer: false, minimum: 0, maximum: 500 });
    const options = (index: number) => (fields[index] as { options: unknown }).options;
    expect(options(5)).toEqual([
      { value: 'a', title: 'a' },
      { value: 'b', title: 'b' },
    ]);
    expect(options(6)).toEqual([{ value: 'eu', title: 'Europe' }]);
    expect(options(7)).toEqual([
      { value: 'x', title: 'Ex' },
      { value: 'y', title: 'Why' },
    ]);
    expect(fields[8]).toMatchObject({ minItems: 1, maxItems: 2 });
    expect(options(9)).toEqual([{ value: 'us', title: 'United States' }]);
  });

  it('takes an empty form, annotations, additionalProperties: false and a restated items type', () => {
    expect(checkRequestedSchema({ type: 'object', properties: {} })).toEqual([]);
    expect(
      paths(
        schemaOf(
          {
            a: { type: 'string', $comment: 'why', 'x-ui': 1, examples: ['q'] },
            b: { type: 'array', items: { type: 'string', anyOf: [{ const: 'c', title: 'C' }] } },
          },
          { additionalProperties: false, title: 'T', description: 'D' },
        ),
      ),
    ).toEqual([]);
  });

  it('refuses what is not an object schema', () => {
    expect(paths('a string')).toEqual(['requestedSchema']);
    expect(paths({ type: 'array', properties: {} })).toEqual(['requestedSchema.type']);
    expect(paths({ type: 'object' })).toEqual(['requestedSchema.properties']);
    expect(paths({ type: 'object', properties: {}, required: 'a' })).toEqual(['requestedSchema.required']);
  });

  it('refuses keywords outside the restricted form, at their paths', () => {
    expect(paths(schemaOf({}, { additionalProperties: true, allOf: [] }))).toEqual([
      'requestedSchema.additionalProperties',
      'requestedSchema.allOf',
    ]);
    expect(paths(schemaOf({ code: { type: 'string', pattern: '^[A-Z]+$' } }))).toEqual([
      'requestedSchema.properties.code.pattern',
    ]);
    expect(paths(schemaOf({ n: { type: 'number', exclusiveMinimum: 0, multipleOf: 2 } }))).toEqual([
      'requestedSchema.properties.n.exclusiveMinimum',
      'requestedSchema.properties.n.multipleOf',
    ]);
    expect(paths(schemaOf({ e: { type: 'string', enum: ['a'], format: 'email' } }))).toEqual([
      'requestedSchema.properties.e.format',
    ]);
    expect(
      paths(schemaOf({ o: { type: 'string', oneOf: [{ const: 'a', title: 'A', description: 'x', if: {} }] } })),
    ).toEqual(['requestedSchema.properties.o.oneOf[0].if']);
    expect(paths(schemaOf({ m: { type: 'array', items: { type: 'string', enum: ['a'], minLength: 1 } } }))).toEqual([
      'requestedSchema.properties.m.items.minLength',
    ]);
    expect(
      paths(schemaOf({ m: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] }, uniqueItems: true } })),
    ).toEqual(['requestedSchema.properties.m.uniqueItems']);
  });

  it('refuses properties that are not flat primitives', () => {
    expect(paths(schemaOf({ nested: { type: 'object', properties: {} } }))).toEqual([
      'requestedSchema.properties.nested.type',
    ]);
    expect(paths(schemaOf({ untyped: {} }))).toEqual(['requestedSchema.properties.untyped.type']);
    expect(paths(schemaOf({ bare: true }))).toEqual(['requestedSchema.properties.bare']);
    expect(paths(schemaOf({ list: { type: 'array', items: { type: 'number' } } }))).toEqual([
      'requestedSchema.properties.list.items.type',
      'requestedSchema.properties.list.items.enum',
    ]);
    expect(paths(schemaOf({ f: { type: 'string', format: 'ipv4' } }))).toEqual(['requestedSchema.properties.f.format']);
    expect(paths(schemaOf({ t: { type: 'string', title: 7 } }))).toEqual(['requestedSchema.properties.t.title']);
  });

  it('refuses a field that cannot be answered', () => {
    const problem = (property: unknown) => checkRequestedSchema(schemaOf({ p: property }));
    expect(problem({ type: 'string', minLength: 5, maxLength: 2 })).toEqual([
      { path: 'requestedSchema.properties.p.minLength', message: 'must not be over maxLength (2)' },
    ]);
    expect(problem({ type: 'string', minLength: -1 })[0]?.path).toBe('requestedSchema.properties.p.minLength');
    expect(problem({ type: 'string', maxLength: 1.5 })[0]?.path).toBe('requestedSchema.properties.p.maxLength');
    expect(problem({ type: 'number', minimum: 3, maximum: 1 })[0]?.path).toBe('requestedSchema.properties.p.minimum');
    expect(problem({ type: 'array', items: { enum: ['a'], type: 'string' }, minItems: 2, maxItems: 1 })[0]?.path).toBe(
      'requestedSchema.properties.p.minItems',
    );
    expect(problem({ type: 'string', enum: [] })[0]?.message).toBe('must offer at least one option');
    expect(problem({ type: 'string', enum: ['a', 'a'] })[0]?.message).toBe('offers "a" more than once');
    expect(problem({ type: 'string', enum: ['a', 'b'], enumNames: ['A'] })[0]?.path).toBe(
      'requestedSchema.properties.p.enumNames',
    );
  });

  it('holds a default to the rules an answer is held to', () => {
    const defaultProblem = (property: unknown) => checkRequestedSchema(schemaOf({ p: property }));
    expect(defaultProblem({ type: 'string', enum: ['a'], default: 'b' })).toEqual([
      { path: 'requestedSchema.properties.p.default', message: 'must be one of "a"' },
    ]);
    expect(defaultProblem({ type: 'string', format: 'email', default: 'nobody' })[0]?.path).toBe(
      'requestedSchema.properties.p.default',
    );
    expect(defaultProblem({ type: 'integer', default: 1.5 })[0]?.message).toBe('must be a whole number');
    expect(defaultProblem({ type: 'array', items: { type: 'string', enum: ['a'] }, default: ['z'] })[0]?.path).toBe(
      'requestedSchema.properties.p.default[0]',
    );
  });

  it('refuses a required name with no property, and leaves out the fields at fault', () => {
    const read = readRequestedSchema(
      schemaOf({ ok: { type: 'boolean' }, bad: { type: 'object' } }, { required: ['ok', 'missing'] }),
    );
    expect(read.problems.map((problem) => problem.path)).toEqual([
      'requestedSchema.required[1]',
      'requestedSchema.properties.bad.type',
    ]);
    expect(read.fields.map((field) => field.name)).toEqual(['ok']);
  });

  it('names odd property names in brackets', () => {
    expect(paths(schemaOf({ 'two words': { type: 'string', pattern: 'x' } }))).toEqual([
      'requestedSchema.properties["two words"].pattern',
    ]);
  });
});
