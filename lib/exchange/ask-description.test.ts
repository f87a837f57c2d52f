import { clip, describeAsk, MAX_FIELDS, MAX_MESSAGE_CHARS, MAX_REQUESTS } from './ask-description';

const ASKED_AT = Date.parse('2026-08-01T10:00:00.000Z');

describe('describeAsk', () => {
  it("keeps each request's kind, and an elicitation's message, mode and field names, and nothing else", () => {
    const description = describeAsk(
      {
        approval: {
          method: 'elicitation/create',
          params: {
            message: 'Deploy checkout@2.1.0?',
            requestedSchema: {
              type: 'object',
              properties: { approve: { type: 'boolean', default: true }, ticket: { type: 'string', default: 'CHG-9' } },
            },
          },
        },
        summary: {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'secret plan' } }], maxTokens: 10 },
        },
        roots: { method: 'roots/list' },
        login: {
          method: 'elicitation/create',
          params: { mode: 'url', message: 'Sign in', url: 'https://idp.example/cb?token=s3cr3t', elicitationId: 'e1' },
        },
      },
      ASKED_AT,
    );
    expect(description).toEqual({
      askedAt: ASKED_AT,
      requests: [
        {
          key: 'approval',
          method: 'elicitation/create',
          mode: 'form',
          message: 'Deploy checkout@2.1.0?',
          fields: ['approve', 'ticket'],
        },
        { key: 'summary', method: 'sampling/createMessage' },
        { key: 'roots', method: 'roots/list' },
        { key: 'login', method: 'elicitation/create', mode: 'url', message: 'Sign in' },
      ],
    });
    const text = JSON.stringify(description);
    for (const leaked of ['secret plan', 's3cr3t', 'CHG-9', 'idp.example']) expect(text).not.toContain(leaked);
  });

  it('bounds the message, the fields and the requests, and says how many were left out', () => {
    const properties = Object.fromEntries(Array.from({ length: MAX_FIELDS + 5 }, (_, i) => [`f${i}`, {}]));
    const requests = Object.fromEntries(
      Array.from({ length: MAX_REQUESTS + 3 }, (_, i) => [
        `k${i}`,
        { method: 'elicitation/create', params: { message: 'x'.repeat(5000), requestedSchema: { properties } } },
      ]),
    );
    const description = describeAsk(requests, ASKED_AT);
    expect(description.requests).toHaveLength(MAX_REQUESTS);
    expect(description.moreRequests).toBe(3);
    const first = description.requests[0]!;
    expect(first.fields).toHaveLength(MAX_FIELDS);
    expect(first.moreFields).toBe(5);
    expect(Array.from(first.message!)).toHaveLength(MAX_MESSAGE_CHARS);
    expect(first.message!.endsWith('…')).toBe(true);
    expect(JSON.stringify(description).length).toBeLessThan(16_000);
  });

  it('describes a request of a kind it does not know by its method, and one without a method as unknown', () => {
    expect(describeAsk({ a: { method: 'tasks/get', params: { secret: 1 } }, b: 42 }, ASKED_AT).requests).toEqual([
      { key: 'a', method: 'tasks/get' },
      { key: 'b', method: 'unknown' },
    ]);
  });
});

describe('clip', () => {
  it('puts text on one line', () => {
    expect(clip('Deploy?\nChange summary:\t fast\u2028done\u0000', 100)).toBe('Deploy? Change summary: fast done');
  });

  it('cuts at a character, never inside a surrogate pair', () => {
    expect(clip('😀😀😀😀', 3)).toBe('😀😀…');
    expect(clip('abc', 3)).toBe('abc');
  });
});
