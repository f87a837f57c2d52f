import { FOLD_CHARS } from './argument-value';
import { renderQuestion } from './question-page';
import { NOW, answerer, questionView } from './test-question';
import { timeLeft } from './time-text';

const page = (
  overrides: Parameters<typeof questionView>[0] = {},
  extra: Partial<Parameters<typeof renderQuestion>[0]> = {},
) => renderQuestion({ question: questionView(overrides), answerer, csrf: 'tok', now: NOW, ...extra });
const HOSTILE = '<script>alert(1)</script>';
/** The answer form of the page's question (q-123); the header's sign-out is a form too. */
const ANSWER_FORM = '<form method="post" action="/answers/q/q-123">';
const SIGN_OUT =
  '<form method="post" action="/answers/sign-out"><input type="hidden" name="csrf" value="tok"><button type="submit">Sign out</button></form>';

describe('question page', () => {
  it('shows the call, its caller, message, deadline and arguments, then the form', () => {
    const markup = page();
    expect(markup).toContain('<dt>Tool</dt><dd><code>approve_refund</code></dd>');
    expect(markup).toContain(
      '<dt>Caller</dt><dd><span class="identity"><code>bob</code> of <code>https://id.example.com</code></span></dd>',
    );
    expect(markup).toContain('<p class="message">Refund order A-17?</p>');
    expect(markup).toContain('<time datetime="2026-05-01T12:09:00.000Z">2026-05-01 12:09:00 UTC</time> (in 9 minutes)');
    expect(markup).toContain(
      '<dt><code>order</code></dt><dd><pre class="value"><code>&quot;A-17&quot;</code></pre></dd><dt><code>amount</code></dt><dd><pre class="value"><code>120</code></pre></dd>',
    );
    expect(markup).toContain(ANSWER_FORM);
    expect(markup).toContain('<input type="hidden" name="csrf" value="tok">');
    expect(markup).toContain('<input type="hidden" name="shown" value="digest-1">');
    expect(markup).toContain('Signed in as Ana Ruiz');
  });

  it('offers to sign out in its header, with the session token, whether the question waits or not', () => {
    const waiting = page();
    expect(waiting).toContain(SIGN_OUT);
    expect(waiting.indexOf(SIGN_OUT)).toBeLessThan(waiting.indexOf(ANSWER_FORM));
    expect(waiting).toMatch(
      /<header>.*Signed in as Ana Ruiz.*<button type="submit">Sign out<\/button><\/form><\/header>/,
    );
    for (const status of ['answered', 'expired', 'cancelled'] as const) expect(page({ status })).toContain(SIGN_OUT);
    const hostile = renderQuestion({ question: questionView(), answerer, csrf: '"><script>', now: NOW });
    expect(hostile).toContain(
      'action="/answers/sign-out"><input type="hidden" name="csrf" value="&quot;&gt;&lt;script&gt;">',
    );
  });

  it('shows every argument whole, in the order the caller sent them, folding a long one', () => {
    const args = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`a${i}`, i]));
    const long = 'x'.repeat(5_000);
    const markup = page({ arguments: { zeta: long, ...args, alpha: 1 } });
    expect(markup).toContain(`<code>&quot;${long}&quot;</code>`);
    expect(markup).toMatch(/<details class="value"><summary><code>&quot;x{79}<\/code>… \(5,002 characters: open/);
    for (let i = 0; i < 60; i++) expect(markup).toContain(`<dt><code>a${i}</code></dt>`);
    expect(markup.indexOf('<code>zeta</code>')).toBeLessThan(markup.indexOf('<code>a0</code>'));
    expect(markup.indexOf('<code>a59</code>')).toBeLessThan(markup.indexOf('<code>alpha</code>'));
    expect(markup).not.toContain('more not shown');
    expect(page({ arguments: {} })).toContain('No arguments.');
  });

  it('folds a value past the fold only, and lays an object out on lines', () => {
    const short = 'y'.repeat(FOLD_CHARS - 2);
    expect(page({ arguments: { s: short } })).not.toContain('<details');
    expect(page({ arguments: { s: `${short}yy` } })).toContain('<details class="value">');
    expect(page({ arguments: { o: { a: 1, b: [true] } } })).toContain(
      '<pre class="value"><code>{\n  &quot;a&quot;: 1,\n  &quot;b&quot;: [\n    true\n  ]\n}</code></pre>',
    );
  });

  it('shows invisible and reordering characters as markers in the arguments, the message, the caller and the labels', () => {
    const markup = page({
      target: 'pay\u200B',
      message: 'Pay the invoice\u202Efdp.exe?\nLine two',
      caller: { id: 'p-bob', subject: 'bob\u2066', issuer: 'https://id.example.com' },
      arguments: { 'file\u202Ename': 'invoice\u202Efdp.exe', nested: { 'k\u200D': '\u2067x\u2069' } },
      requestedSchema: {
        type: 'object',
        properties: {
          ok: { type: 'boolean', title: 'Approve\u202E', description: 'Say\u200Fso' },
          pick: { type: 'string', oneOf: [{ const: 'a\u202E', title: 'A\u202E' }] },
        },
      },
    });
    const shown = markup.replace(/value="[^"]*"/g, '');
    expect(shown).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F]/u);
    expect(markup).toContain('<code>pay⟨U+200B⟩</code>');
    expect(markup).toContain('<p class="message">Pay the invoice⟨U+202E⟩fdp.exe?\nLine two</p>');
    expect(markup).toContain('<code>bob⟨U+2066⟩</code>');
    expect(markup).toContain('<dt><code>file⟨U+202E⟩name</code></dt>');
    expect(markup).toContain('&quot;invoice⟨U+202E⟩fdp.exe&quot;');
    expect(markup).toContain('&quot;k⟨U+200D⟩&quot;: &quot;⟨U+2067⟩x⟨U+2069⟩&quot;');
    expect(markup).toContain('Approve⟨U+202E⟩</label>');
    expect(markup).toContain('Say⟨U+200F⟩so');
    // What the form posts back is the option's own value, unchanged.
    expect(markup).toContain('value="a\u202E"');
    expect(markup).toContain('>A⟨U+202E⟩</option>');
  });

  it('escapes a hostile message, target, caller, argument names and values, answerer and notice', () => {
    const markup = renderQuestion({
      question: questionView({
        message: HOSTILE,
        target: HOSTILE,
        caller: { id: 'x', subject: HOSTILE },
        arguments: { [HOSTILE]: HOSTILE, nested: { html: HOSTILE } },
        shownDigest: '"><script>',
        id: '"><script>',
        requestedSchema: {
          type: 'object',
          properties: { pick: { type: 'string', enum: [HOSTILE], enumNames: [HOSTILE] } },
        },
      }),
      answerer: { ...answerer, name: HOSTILE },
      csrf: '"><script>',
      notice: HOSTILE,
      now: NOW,
    });
    expect(markup).not.toMatch(/<script/i);
    expect(markup).toContain('<p class="message">&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(markup).toContain('action="/answers/q/%22%3E%3Cscript%3E"');
    expect(markup).toContain(
      '<code>{\n  &quot;html&quot;: &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;\n}</code>',
    );
  });

  it('shows a notice first, and problems with the values that were posted', () => {
    const markup = page(
      { requestedSchema: { type: 'object', properties: { amount: { type: 'number' } } } },
      {
        notice: 'This question changed since you opened it.',
        values: { 'content.amount': 'abc' },
        problems: [{ path: 'content.amount', message: 'must be a number' }],
      },
    );
    expect(markup).toContain('<p class="notice" role="status">This question changed since you opened it.</p>');
    expect(markup).toContain('value="abc"');
    expect(markup).toContain('<p class="error" id="field-0-error">must be a number</p>');
  });

  it('says who answered (subject and issuer, the name beside), when, through what and what, instead of a form', () => {
    const at = NOW + 120_000;
    const schema = {
      type: 'object',
      properties: {
        reason: { type: 'string', title: 'Reason', oneOf: [{ const: 'late', title: 'Arrived late' }] },
        note: { type: 'string', title: 'Note' },
        notify: { type: 'boolean', title: 'Email the customer' },
        amount: { type: 'number' },
      },
    };
    const cleo = { ...answerer, subject: 'c', issuer: 'https://id.example.com', name: 'Cleo', email: 'c@example.com' };
    const markup = page({
      status: 'answered',
      requestedSchema: schema,
      answers: [
        {
          by: cleo,
          at,
          via: 'page',
          action: 'accept',
          content: { amount: 25.5, notify: false, note: 'Sorry!\nTwice', reason: 'late' },
        },
        { by: { ...answerer, name: undefined, subject: 'dan' }, at, via: 'api', action: 'decline' },
      ],
    });
    expect(markup).not.toContain(ANSWER_FORM);
    expect(markup).toContain(
      'Accepted by <span class="identity"><code>c</code> of <code>https://id.example.com</code> (“Cleo”, c@example.com)</span> at <time datetime="2026-05-01T12:02:00.000Z">2026-05-01 12:02:00 UTC</time>, on the answer page.',
    );
    // The fields in the form's order, whatever order the content came in.
    expect(markup).toContain(
      '<dl class="answer"><dt>Reason</dt><dd><span class="text">Arrived late</span></dd><dt>Note</dt><dd><span class="text">Sorry!\nTwice</span></dd><dt>Email the customer</dt><dd><span class="text">No</span></dd><dt>amount</dt><dd><span class="text">25.5</span></dd></dl>',
    );
    expect(markup).toContain('Declined by <span class="identity"><code>dan</code></span> at');
    expect(markup).toContain('through the answer API.');
    expect(markup).not.toContain('(in 9 minutes)');
    expect(
      page({
        status: 'answered',
        answers: [{ by: { ...cleo, name: HOSTILE }, at, via: 'page', action: 'accept', content: { note: HOSTILE } }],
      }),
    ).not.toMatch(/<script/);
  });

  it('shows the caller of a question that excludes them the call and why they cannot answer, and no form', () => {
    const markup = page(
      { addressing: { anyOf: [{ group: 'finance' }], excludeCaller: true } },
      { excludedCaller: true },
    );
    expect(markup).toContain('<h1>A question about your call</h1>');
    expect(markup).toContain('You made this call, and this question must be answered by someone else');
    expect(markup).toContain('It waits for their answer until');
    expect(markup).toContain('<code>&quot;A-17&quot;</code>');
    expect(markup).not.toContain('<form method="post" action="/answers/q/');
    expect(markup).not.toContain('<button type="submit" name="action"');
  });

  it('shows an expired or a cancelled question without a form', () => {
    const expired = page({ status: 'expired' });
    expect(expired).not.toContain(ANSWER_FORM);
    expect(expired).toContain('Expired at <time datetime="2026-05-01T12:09:00.000Z">2026-05-01 12:09:00 UTC</time>');
    const cancelled = page({ status: 'cancelled' });
    expect(cancelled).not.toContain(ANSWER_FORM);
    expect(cancelled).toContain('Cancelled');
  });

  it('is a whole page for a phone, in English, with no script or external asset', () => {
    const markup = page();
    expect(markup).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(markup).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(markup).toContain('<style>');
    expect(markup).not.toMatch(/<script|<link|\ssrc=|javascript:|\son[a-z]+=/i);
  });
});

describe('time left', () => {
  it('counts whole minutes up, then hours, and says now once it is due', () => {
    expect(timeLeft(NOW + 60_000, NOW)).toBe('in 1 minute');
    expect(timeLeft(NOW + 61_000, NOW)).toBe('in 2 minutes');
    expect(timeLeft(NOW + 3 * 3_600_000, NOW)).toBe('in 3 hours');
    expect(timeLeft(NOW, NOW)).toBe('now');
    expect(timeLeft(NOW - 5_000, NOW)).toBe('now');
  });
});
