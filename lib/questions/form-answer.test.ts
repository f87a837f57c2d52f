import { answerFromForm } from './form-answer';
import { fromDateTimeLocal, toDateTimeLocal } from './datetime-local';

const schema = {
  type: 'object',
  properties: {
    reason: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    day: { type: 'string', format: 'date' },
    amount: { type: 'number', maximum: 500 },
    count: { type: 'integer' },
    notify: { type: 'boolean' },
    plan: { type: 'string', enum: ['basic', 'pro'] },
    tags: { type: 'array', items: { type: 'string', enum: ['t1', 't2'] } },
    'odd name': { type: 'string' },
  },
  required: ['amount'],
};
const page = { csrf: 'token', shown: 'digest' };

describe('answer from form', () => {
  it('converts each field to its type, and leaves out empty optional ones', () => {
    const result = answerFromForm(schema, {
      ...page,
      action: 'accept',
      'content.reason': 'late delivery',
      'content.at': '2026-05-01T13:45',
      'content.day': '',
      'content.amount': ' 12.5 ',
      'content.count': '-3',
      'content.notify': 'true',
      'content.plan': 'pro',
      'content.tags': ['t1', 't2'],
      'content["odd name"]': 'x',
    });
    expect(result).toEqual({
      answer: {
        action: 'accept',
        content: {
          reason: 'late delivery',
          at: '2026-05-01T13:45:00Z',
          amount: 12.5,
          count: -3,
          notify: true,
          plan: 'pro',
          tags: ['t1', 't2'],
          'odd name': 'x',
        },
      },
    });
  });

  it('reads an absent checkbox as false and no ticked options as none', () => {
    expect(answerFromForm(schema, { ...page, action: 'accept', 'content.amount': '1', 'content.tags': 't2' })).toEqual({
      answer: { action: 'accept', content: { amount: 1, notify: false, tags: ['t2'] } },
    });
    expect(answerFromForm(schema, { action: 'accept', 'content.amount': '1' })).toEqual({
      answer: { action: 'accept', content: { amount: 1, notify: false, tags: [] } },
    });
  });

  it('declines with no content, whatever the form held', () => {
    expect(
      answerFromForm(schema, { ...page, action: 'decline', 'content.amount': 'not a number', stray: 'x' }),
    ).toEqual({
      answer: { action: 'decline' },
    });
  });

  it('refuses a missing or unknown action', () => {
    for (const action of [undefined, 'cancel', 'approve', ['accept', 'decline']]) {
      const fields = action === undefined ? page : { ...page, action };
      expect(answerFromForm(schema, fields)).toEqual({
        problems: [{ path: 'action', message: 'must be accept or decline' }],
      });
    }
  });

  it('refuses what does not convert, once, at its field', () => {
    expect(answerFromForm(schema, { action: 'accept', 'content.amount': '12abc', 'content.count': '0x10' })).toEqual({
      problems: [
        { path: 'content.amount', message: 'must be a number' },
        { path: 'content.count', message: 'must be a number' },
      ],
    });
    expect(answerFromForm(schema, { action: 'accept', 'content.amount': ['1', '2'] })).toEqual({
      problems: [{ path: 'content.amount', message: 'was sent more than once' }],
    });
  });

  it('holds the converted answer to the schema', () => {
    expect(
      answerFromForm(schema, {
        action: 'accept',
        'content.amount': '501',
        'content.count': '1.5',
        'content.plan': 'gold',
      }),
    ).toEqual({
      problems: [
        { path: 'content.amount', message: 'must be at most 500' },
        { path: 'content.count', message: 'must be a whole number' },
        { path: 'content.plan', message: 'must be one of "basic", "pro"' },
      ],
    });
    expect(answerFromForm(schema, { action: 'accept', 'content.amount': '' })).toEqual({
      problems: [{ path: 'content.amount', message: 'is required' }],
    });
    expect(answerFromForm(schema, { action: 'accept', 'content.amount': '1', 'content.at': 'tomorrow' })).toEqual({
      problems: [{ path: 'content.at', message: expect.stringContaining('must be a date and time') }],
    });
  });

  it("refuses fields the form does not have, but not the page's own", () => {
    expect(
      answerFromForm(schema, { ...page, action: 'accept', 'content.amount': '1', amount: '2', 'content.x': 'y' }),
    ).toEqual({
      problems: [
        { path: 'amount', message: 'is not a field of this question' },
        { path: 'content.x', message: 'is not a field of this question' },
      ],
    });
  });

  it('posts a property named like a page field under its own path', () => {
    const named = { type: 'object', properties: { action: { type: 'string' }, csrf: { type: 'string' } } };
    expect(
      answerFromForm(named, { ...page, action: 'accept', 'content.action': 'refund', 'content.csrf': 'c' }),
    ).toEqual({
      answer: { action: 'accept', content: { action: 'refund', csrf: 'c' } },
    });
  });

  it('refuses a schema outside the restricted form', () => {
    const bad = { type: 'object', properties: { n: { type: 'object' } } };
    expect(answerFromForm(bad, { action: 'decline' })).toEqual({
      problems: [expect.objectContaining({ path: 'requestedSchema.properties.n.type' })],
    });
  });
});

describe('datetime-local', () => {
  it('shows a date-time as its UTC wall time, and posts one back as UTC', () => {
    expect(toDateTimeLocal('2026-05-01T15:45:30+02:00')).toBe('2026-05-01T13:45:30');
    expect(toDateTimeLocal('not a time')).toBeUndefined();
    expect(fromDateTimeLocal('2026-05-01T13:45')).toBe('2026-05-01T13:45:00Z');
    expect(fromDateTimeLocal('2026-05-01T13:45:30.5')).toBe('2026-05-01T13:45:30.5Z');
    expect(fromDateTimeLocal('2026-05-01T13:45:00+02:00')).toBe('2026-05-01T13:45:00+02:00');
  });
});
