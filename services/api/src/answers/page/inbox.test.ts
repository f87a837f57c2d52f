import { renderInbox } from './inbox';
import { renderNotice } from './notice';
import { NOW, answerer, questionView } from './test-question';

describe('inbox', () => {
  it('lists the waiting questions, soonest deadline first, each with its link, caller, message and deadline', () => {
    const markup = renderInbox({
      answerer,
      signOutCsrf: 'out-tok',
      now: NOW,
      questions: [
        questionView({ id: 'q-late', target: 'rotate_keys', deadlineAt: NOW + 3_600_000 }),
        questionView({ id: 'q-soon', message: 'Refund A-17?', deadlineAt: NOW + 5 * 60_000 }),
      ],
    });
    expect(markup.indexOf('/answers/q/q-soon')).toBeLessThan(markup.indexOf('/answers/q/q-late'));
    expect(markup).toContain('<a href="/answers/q/q-soon"><code>approve_refund</code></a>');
    expect(markup).toContain('<p>Refund A-17?</p>');
    expect(markup).toContain(
      'From <span class="identity"><code>bob</code> of <code>https://id.example.com</code></span>. Deadline <time datetime="2026-05-01T12:05:00.000Z">2026-05-01 12:05:00 UTC</time>',
    );
    expect(markup).toContain('(in 5 minutes)');
    expect(markup).toContain('(in 60 minutes)');
    expect(markup).toContain(
      '<form method="post" action="/answers/sign-out"><input type="hidden" name="csrf" value="out-tok">',
    );
    expect(markup).not.toContain('Nothing is waiting');
  });

  it('says so when nothing waits', () => {
    const markup = renderInbox({ answerer, signOutCsrf: 't', questions: [], now: NOW });
    expect(markup).toContain('Nothing is waiting for you.');
    expect(markup).not.toContain('<li>');
  });

  it('escapes what handlers and callers wrote, and cuts long messages', () => {
    const hostile = '<script>alert(1)</script>';
    const markup = renderInbox({
      answerer: { ...answerer, name: hostile },
      signOutCsrf: '"><script>',
      now: NOW,
      questions: [
        questionView({
          message: `${hostile}${'y'.repeat(500)}`,
          target: hostile,
          caller: { id: 'c', subject: hostile },
        }),
      ],
    });
    expect(markup).not.toMatch(/<script/i);
    expect(markup).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(markup).not.toContain('y'.repeat(200));
    expect(markup).toContain('y…</p>');
  });

  it('says how many more wait beyond the list, and nothing when it holds them all', () => {
    const questions = [questionView({ id: 'q-1' })];
    const more = renderInbox({ answerer, signOutCsrf: 't', questions, moreWaiting: 7, now: NOW });
    expect(more).toContain(
      '<p class="more">7 more questions are waiting for you; they are listed here as these are answered.</p>',
    );
    expect(renderInbox({ answerer, signOutCsrf: 't', questions, moreWaiting: 1, now: NOW })).toContain(
      '1 more question is waiting for you',
    );
    expect(renderInbox({ answerer, signOutCsrf: 't', questions, moreWaiting: 0, now: NOW })).not.toContain('more');
  });

  it("shows the caller's display name and verified email beside its subject and issuer, never instead", () => {
    const markup = renderInbox({
      answerer,
      signOutCsrf: 't',
      now: NOW,
      questions: [
        questionView({
          caller: {
            id: 'https://id.example.com|x3Jq',
            subject: 'x3Jq',
            issuer: 'https://id.example.com',
            name: 'Bob \u202eBuilder',
            email: 'bob@example.com',
          },
        }),
      ],
    });
    expect(markup).toContain(
      'From <span class="identity"><code>x3Jq</code> of <code>https://id.example.com</code> (“Bob ⟨U+202E⟩Builder”, bob@example.com)</span>.',
    );
  });
});

describe('notices', () => {
  it('asks to sign in, with the way to', () => {
    const markup = renderNotice({ kind: 'signInNeeded', signInHref: '/answers/sign-in?next=%2Fanswers%2Fq%2F1&x="' });
    expect(markup).toContain('<h1>Sign in to answer</h1>');
    expect(markup).toContain('<a href="/answers/sign-in?next=%2Fanswers%2Fq%2F1&amp;x=&quot;">Sign in</a>');
  });

  it('says a question is for someone else, or not there, and nothing more', () => {
    expect(renderNotice({ kind: 'notAddressed' })).toContain('<h1>Not addressed to you</h1>');
    expect(renderNotice({ kind: 'notFound' })).toContain('<h1>No such question</h1>');
    expect(renderNotice({ kind: 'notFound' })).toContain('<a href="/answers">Your questions</a>');
  });
});
