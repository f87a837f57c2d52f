import { checkAnswerContent } from './answer-content';
import type { ElicitAnswer } from './question';

const schema = {
  type: 'object',
  properties: {
    reason: { type: 'string', minLength: 3, maxLength: 5 },
    contact: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    amount: { type: 'number', minimum: 0, maximum: 500 },
    count: { type: 'integer' },
    notify: { type: 'boolean' },
    plain: { type: 'string', enum: ['a', 'b'] },
    titled: { type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }] },
    legacy: { type: 'string', enum: ['x'], enumNames: ['Ex'] },
    tags: { type: 'array', items: { type: 'string', enum: ['t1', 't2', 't3'] }, minItems: 1, maxItems: 2 },
    regions: { type: 'array', items: { anyOf: [{ const: 'us', title: 'United States' }] } },
  },
  required: ['amount'],
};
const accept = (content: ElicitAnswer['content']): ElicitAnswer => ({ action: 'accept', content });
const problemsOf = (content: Record<string, unknown>) =>
  checkAnswerContent(schema, accept({ amount: 1, ...content } as never));
const refused = (content: Record<string, unknown>) => problemsOf(content).map((problem) => problem.path);

describe('answer content', () => {
  it('takes an answer meeting every rule', () => {
    const answer = accept({
      reason: 'late',
      contact: 'ana@example.com',
      site: 'https://example.com/a?b=c',
      day: '2024-02-29',
      at: '2026-05-01T13:45:00Z',
      amount: 12.5,
      count: 3,
      notify: false,
      plain: 'b',
      titled: 'eu',
      legacy: 'x',
      tags: ['t1', 't3'],
      regions: [],
    });
    expect(checkAnswerContent(schema, answer)).toEqual([]);
    expect(checkAnswerContent(schema, accept({ amount: 0 }))).toEqual([]);
    expect(checkAnswerContent(schema, accept({ at: '2026-05-01t13:45:00.25+02:00', amount: 500 }))).toEqual([]);
  });

  it('refuses a missing required field and an unknown one, at their paths', () => {
    expect(checkAnswerContent(schema, accept({}))).toEqual([{ path: 'content.amount', message: 'is required' }]);
    expect(checkAnswerContent(schema, { action: 'accept' })).toEqual([
      { path: 'content.amount', message: 'is required' },
    ]);
    expect(problemsOf({ extra: 1, 'odd key': 'x' })).toEqual([
      { path: 'content.extra', message: 'is not a field of this question' },
      { path: 'content["odd key"]', message: 'is not a field of this question' },
    ]);
  });

  it('refuses strings out of their lengths, counted in code points', () => {
    expect(problemsOf({ reason: 'ab' })).toEqual([
      { path: 'content.reason', message: 'must be at least 3 characters' },
    ]);
    expect(problemsOf({ reason: 'abcdef' })).toEqual([
      { path: 'content.reason', message: 'must be at most 5 characters' },
    ]);
    expect(refused({ reason: '😀😀😀' })).toEqual([]);
    expect(refused({ reason: 7 })).toEqual(['content.reason']);
  });

  it.each([
    ['contact', 'ana@', 'ana example.com', 'ana@localhost'],
    ['site', 'example.com', '/relative', 'https://exa mple.com'],
    ['day', '2023-02-29', '2024-13-01', '2024-1-1'],
    ['at', '2026-05-01T13:45Z', '2026-05-01 13:45:00Z', '2026-05-01T24:00:00Z'],
  ])('refuses %s values out of its format', (field, ...values) => {
    for (const value of values) expect(refused({ [field]: value })).toEqual([`content.${field}`]);
  });

  it('refuses numbers out of their bounds, and fractions of an integer', () => {
    expect(problemsOf({ amount: -0.5 })).toEqual([{ path: 'content.amount', message: 'must be at least 0' }]);
    expect(problemsOf({ amount: 500.01 })).toEqual([{ path: 'content.amount', message: 'must be at most 500' }]);
    expect(problemsOf({ count: 1.5 })).toEqual([{ path: 'content.count', message: 'must be a whole number' }]);
    expect(refused({ amount: '12' })).toEqual(['content.amount']);
    expect(refused({ count: true })).toEqual(['content.count']);
  });

  it('refuses a boolean that is not one', () => {
    expect(problemsOf({ notify: 'true' })).toEqual([{ path: 'content.notify', message: 'must be true or false' }]);
  });

  it('refuses a single-select value that is not an option, however the options are titled', () => {
    expect(problemsOf({ plain: 'c' })).toEqual([{ path: 'content.plain', message: 'must be one of "a", "b"' }]);
    expect(refused({ titled: 'Europe' })).toEqual(['content.titled']);
    expect(refused({ legacy: 'Ex' })).toEqual(['content.legacy']);
    expect(refused({ plain: ['a'] })).toEqual(['content.plain']);
  });

  it('refuses multi-select values out of their options or counts, each at its index', () => {
    expect(refused({ tags: ['t1', 'nope'] })).toEqual(['content.tags[1]']);
    expect(problemsOf({ tags: ['t1', 't1'] })).toEqual([{ path: 'content.tags[1]', message: 'repeats "t1"' }]);
    expect(problemsOf({ tags: [] })).toEqual([{ path: 'content.tags', message: 'must have at least 1 option chosen' }]);
    expect(problemsOf({ tags: ['t1', 't2', 't3'] })).toEqual([
      { path: 'content.tags', message: 'must have at most 2 options chosen' },
    ]);
    expect(refused({ tags: 't1' })).toEqual(['content.tags']);
    expect(refused({ regions: ['United States'] })).toEqual(['content.regions[0]']);
  });

  it('refuses content on a decline or a cancel, and takes them without', () => {
    expect(checkAnswerContent(schema, { action: 'decline' })).toEqual([]);
    expect(checkAnswerContent(schema, { action: 'cancel', content: null } as never)).toEqual([]);
    expect(checkAnswerContent(schema, { action: 'decline', content: {} })).toEqual([
      { path: 'content', message: 'a decline carries no content' },
    ]);
    expect(checkAnswerContent(schema, { action: 'cancel', content: { amount: 1 } })[0]?.path).toBe('content');
  });

  it('refuses an envelope the SDK refuses', () => {
    expect(checkAnswerContent(schema, { action: 'approve' } as never).map((problem) => problem.path)).toEqual([
      'action',
    ]);
    expect(checkAnswerContent(schema, accept({ amount: { deep: 1 } } as never))[0]?.path).toBe('content.amount');
  });

  it('refuses any answer to a schema outside the restricted form, naming the schema', () => {
    const bad = { type: 'object', properties: { code: { type: 'string', pattern: 'x' } } };
    expect(checkAnswerContent(bad, accept({ code: 'x' }))).toEqual([
      {
        path: 'requestedSchema.properties.code.pattern',
        message: "is not part of MCP's restricted elicitation schema",
      },
    ]);
  });
});
