import { answerFromForm, type FormFields } from '../../../../../lib/questions/form-answer';
import { readRequestedSchema } from '../../../../../lib/questions/requested-schema';
import { renderQuestionForm } from './question-form';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name]!);

function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [, name, value] of tag.matchAll(/\s([a-z-]+)(?:="([^"]*)")?/g)) attributes[name!] = unescape(value ?? '');
  return attributes;
}

/** The fields a browser posts for `markup`'s form when `button` is pressed: checked boxes only, a select's chosen option. */
function submit(markup: string, button: string): FormFields {
  const fields: FormFields = {};
  const add = (name: string | undefined, value: string) => {
    if (name === undefined) return;
    const before = fields[name];
    fields[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  };
  for (const [, tag] of markup.matchAll(/<input\b([^>]*)>/g)) {
    const input = attributesOf(tag!);
    if ((input.type === 'checkbox' || input.type === 'radio') && !('checked' in input)) continue;
    add(input.name, input.value ?? '');
  }
  for (const [, tag, body] of markup.matchAll(/<select\b([^>]*)>(.*?)<\/select>/gs)) {
    const options = [...body!.matchAll(/<option\b([^>]*)>/g)].map(([, option]) => attributesOf(option!));
    add(attributesOf(tag!).name, (options.find((option) => 'selected' in option) ?? options[0])?.value ?? '');
  }
  add('action', button);
  return fields;
}

/** The one tag of `markup` whose id is `id`. */
const tagWithId = (markup: string, id: string) =>
  attributesOf(new RegExp(`<(?:input|select)\\b[^>]*id="${id}"[^>]*>`).exec(markup)?.[0] ?? '');

const schema = {
  type: 'object',
  properties: {
    reason: { type: 'string', title: 'Reason', minLength: 3, maxLength: 80, default: 'late' },
    contact: { type: 'string', format: 'email', default: 'ana@example.com' },
    site: { type: 'string', format: 'uri', default: 'https://example.com/' },
    day: { type: 'string', format: 'date', default: '2026-05-01' },
    at: { type: 'string', format: 'date-time', default: '2026-05-01T13:45:00Z' },
    amount: { type: 'number', minimum: 0, maximum: 500, default: 12.5 },
    count: { type: 'integer', default: 3 },
    notify: { type: 'boolean', default: true },
    quiet: { type: 'boolean' },
    plan: { type: 'string', enum: ['basic', 'pro'], default: 'pro' },
    region: {
      type: 'string',
      oneOf: [
        { const: 'eu', title: 'Europe' },
        { const: 'us', title: 'United States' },
      ],
    },
    size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'], default: 'm' },
    tags: { type: 'array', items: { type: 'string', enum: ['t1', 't2', 't3'] }, default: ['t1', 't3'] },
    teams: { type: 'array', items: { anyOf: [{ const: 'a', title: 'Team A' }] } },
    note: { type: 'string' },
  },
  required: ['reason', 'amount', 'plan', 'region'],
};
const { fields } = readRequestedSchema(schema);
const form = (extra: Partial<Parameters<typeof renderQuestionForm>[0]> = {}) =>
  renderQuestionForm({ action: '/answers/q/q-1', fields, csrf: 'tok', shown: 'dig', ...extra }).toString();

describe('question form', () => {
  it('renders each kind as its input, with its label, constraints and required', () => {
    const markup = form();
    const input = (name: string) => tagWithId(markup, `field-${fields.findIndex((field) => field.name === name)}`);
    expect(input('reason')).toMatchObject({
      type: 'text',
      minlength: '3',
      maxlength: '80',
      value: 'late',
      required: '',
    });
    expect(input('contact')).toMatchObject({ type: 'email' });
    expect(input('site')).toMatchObject({ type: 'url' });
    expect(input('day')).toMatchObject({ type: 'date', value: '2026-05-01' });
    expect(input('at')).toMatchObject({ type: 'datetime-local', value: '2026-05-01T13:45:00', step: '1' });
    expect(input('amount')).toMatchObject({ type: 'number', step: 'any', min: '0', max: '500', required: '' });
    expect(input('count')).toMatchObject({ type: 'number', step: '1' });
    expect(input('count')).not.toHaveProperty('required');
    expect(input('notify')).toMatchObject({ type: 'checkbox', value: 'true', checked: '' });
    expect(input('quiet')).not.toHaveProperty('checked');
    expect(input('note')).toMatchObject({ type: 'text', name: 'content.note' });
    expect(markup).toContain('<label for="field-0">Reason (required)</label>');
    expect(markup).toContain('<label for="field-1">contact</label>');
    expect(markup).toContain('In UTC.');
    expect(markup).toContain('<p class="hint" id="field-0-hint">3 to 80 characters.</p>');
  });

  it('renders a required short single choice as radios, others as a select, a multi-select as checkboxes', () => {
    const markup = form();
    expect(markup).toMatch(
      /<legend>plan \(required\)<\/legend>.*type="radio" id="field-9-1" name="content.plan" value="pro"[^>]* checked required>/s,
    );
    expect(markup).toContain('<label class="option" for="field-10-0"><input type="radio" id="field-10-0"');
    expect(markup).toContain(' Europe</label>');
    expect(markup).toMatch(
      /<select id="field-11" name="content.size"><option value="">\(none\)<\/option><option value="s">Small<\/option><option value="m" selected>Medium<\/option><\/select>/,
    );
    expect(markup).toMatch(/type="checkbox" id="field-12-0" name="content.tags" value="t1"[^>]* checked>/);
    expect(markup).toMatch(/type="checkbox" id="field-12-1" name="content.tags" value="t2"[^>]*>/);
    expect(markup).toContain(' Team A</label>');
  });

  it('posts its defaults back as the answer they stand for', () => {
    const posted = submit(form(), 'accept');
    expect(posted).toMatchObject({ csrf: 'tok', shown: 'dig', action: 'accept' });
    expect(answerFromForm(schema, posted)).toEqual({ problems: [{ path: 'content.region', message: 'is required' }] });
    expect(answerFromForm(schema, { ...posted, 'content.region': 'us' })).toEqual({
      answer: {
        action: 'accept',
        content: {
          reason: 'late',
          contact: 'ana@example.com',
          site: 'https://example.com/',
          day: '2026-05-01',
          at: '2026-05-01T13:45:00Z',
          amount: 12.5,
          count: 3,
          notify: true,
          quiet: false,
          plan: 'pro',
          region: 'us',
          size: 'm',
          tags: ['t1', 't3'],
          teams: [],
        },
      },
    });
  });

  it('fills a refused answer back in as it was posted, and posts it back the same', () => {
    const values: FormFields = {
      'content.reason': 'ok!',
      'content.amount': '7',
      'content.plan': 'basic',
      'content.region': 'eu',
      'content.size': 's',
      'content.tags': 't2',
      'content.quiet': 'true',
      'content.at': '2026-06-01T08:00',
    };
    const posted = submit(form({ values }), 'accept');
    const answer = answerFromForm(schema, posted);
    expect(answer).toEqual({
      answer: {
        action: 'accept',
        content: {
          reason: 'ok!',
          amount: 7,
          at: '2026-06-01T08:00:00Z',
          notify: false,
          quiet: true,
          plan: 'basic',
          region: 'eu',
          size: 's',
          tags: ['t2'],
          teams: [],
        },
      },
    });
  });

  it('declines without the browser checking the fields', () => {
    const markup = form();
    expect(markup).toContain('<button type="submit" name="action" value="accept">Accept</button>');
    expect(markup).toContain('<button type="submit" name="action" value="decline" formnovalidate>Decline</button>');
    expect(answerFromForm(schema, submit(markup, 'decline'))).toEqual({ answer: { action: 'decline' } });
  });

  it('shows each problem next to its field, and the others above the fields', () => {
    const markup = form({
      problems: [
        { path: 'content.amount', message: 'must be at most 500' },
        { path: 'content.tags[1]', message: 'repeats "t1"' },
        { path: 'content.stray', message: 'is not a field of this question' },
      ],
    });
    expect(markup).toContain('<p class="error" id="field-5-error">must be at most 500</p>');
    expect(tagWithId(markup, 'field-5')).toMatchObject({
      'aria-invalid': 'true',
      'aria-describedby': 'field-5-hint field-5-error',
    });
    expect(markup).toContain('<p class="error" id="field-12-error">repeats &quot;t1&quot;</p>');
    expect(markup).toMatch(/role="alert">.*<li><code>content.stray<\/code> is not a field of this question<\/li>/s);
    expect(form()).not.toContain('role="alert"');
  });

  it('escapes hostile titles, descriptions, option titles and values', () => {
    const hostile = '<img src=x onerror=alert(1)>"';
    const { fields: hostileFields } = readRequestedSchema({
      type: 'object',
      properties: {
        [hostile]: { type: 'string', title: hostile, description: hostile, default: hostile },
        pick: { type: 'string', oneOf: [{ const: hostile, title: hostile }], default: hostile },
      },
      required: ['pick'],
    });
    const markup = renderQuestionForm({
      action: '/a',
      fields: hostileFields,
      csrf: hostile,
      shown: hostile,
    }).toString();
    expect(markup).not.toContain('<img');
    expect(markup).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;');
    expect(submit(markup, 'accept')).toMatchObject({
      csrf: hostile,
      [`content[${JSON.stringify(hostile)}]`]: hostile,
      'content.pick': hostile,
    });
  });
});
