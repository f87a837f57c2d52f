import { MAX_ARGUMENT_CHARS, MAX_ARGUMENTS } from './call-summary';
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
    expect(markup).toContain('<dt>Caller</dt><dd>bob (https://id.example.com)</dd>');
    expect(markup).toContain('<p class="message">Refund order A-17?</p>');
    expect(markup).toContain('<time datetime="2026-05-01T12:09:00.000Z">2026-05-01 12:09 UTC</time> (in 9 minutes)');
    expect(markup).toContain(
      '<dt>order</dt><dd><code>&quot;A-17&quot;</code></dd><dt>amount</dt><dd><code>120</code></dd>',
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

  it('caps long argument values and many arguments', () => {
    const args = Object.fromEntries(Array.from({ length: MAX_ARGUMENTS + 2 }, (_, i) => [`a${i}`, i]));
    const markup = page({ arguments: { ...args, a0: 'x'.repeat(1000) } });
    expect(markup).toContain(`<code>&quot;${'x'.repeat(MAX_ARGUMENT_CHARS - 2)}…</code>`);
    expect(markup).toContain('And 2 more not shown.');
    expect(markup).not.toContain(`<dt>a${MAX_ARGUMENTS}</dt>`);
    expect(page({ arguments: {} })).toContain('No arguments.');
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
    expect(markup).toContain('<code>{&quot;html&quot;:&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;}</code>');
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

  it('shows who answered and when instead of a form, by name or else subject', () => {
    const at = NOW + 120_000;
    const by = (name: string | undefined, subject: string) => ({ ...answerer, name, subject });
    const markup = page({
      status: 'answered',
      answers: [
        { by: by('Cleo', 'c'), at, via: 'page', action: 'accept' },
        { by: by(undefined, 'dan@example.com'), at, via: 'api', action: 'decline' },
      ],
    });
    expect(markup).not.toContain(ANSWER_FORM);
    expect(markup).toContain(
      'Answered by Cleo at <time datetime="2026-05-01T12:02:00.000Z">2026-05-01 12:02 UTC</time> (accepted).',
    );
    expect(markup).toContain('Answered by dan@example.com at');
    expect(markup).toContain('(declined).');
    expect(markup).not.toContain('(in 9 minutes)');
    expect(
      page({ status: 'answered', answers: [{ by: by(HOSTILE, 'x'), at, via: 'page', action: 'accept' }] }),
    ).not.toMatch(/<script/);
  });

  it('shows an expired or a cancelled question without a form', () => {
    const expired = page({ status: 'expired' });
    expect(expired).not.toContain(ANSWER_FORM);
    expect(expired).toContain('Expired at <time datetime="2026-05-01T12:09:00.000Z">2026-05-01 12:09 UTC</time>');
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
