// The development sign-in's form: labelled as such, its tokens hidden, what was typed kept and escaped.
import { DEV_SIGN_IN_BANNER } from '../page/dev-sign-in-banner';
import { renderDevSignIn } from './dev-sign-in-page';

describe('the development sign-in form', () => {
  it('says anyone can be anyone, and posts its token and return path to the sign-in', () => {
    const page = renderDevSignIn({ token: 'tok', returnTo: '/answers/q/1?x=1&y=2' });
    expect(page).toContain(DEV_SIGN_IN_BANNER.text);
    expect(page).toContain('Anyone can sign in here as anyone');
    expect(page).toContain('<form method="post" action="/answers/sign-in">');
    expect(page).toMatch(/<input type="hidden" name="csrf" value="tok" ?\/?>/);
    expect(page).toMatch(/<input type="hidden" name="return" value="\/answers\/q\/1\?x=1&amp;y=2" ?\/?>/);
    for (const name of ['subject', 'name', 'groups']) expect(page).toContain(`name="${name}"`);
    expect(page).toMatch(/<input type="text" id="sign-in-subject" name="subject"[^>]* maxlength="256" required>/);
    expect(page).not.toContain('<script');
    expect(page).not.toContain('role="alert"');
  });

  it('comes back with what was typed, escaped, and each problem beside its field', () => {
    const page = renderDevSignIn({
      token: 'tok',
      returnTo: '/answers',
      values: { subject: '"><script>x</script>', groups: 'a,b' },
      problems: [{ field: 'subject', message: 'No control characters.' }],
    });
    expect(page).not.toContain('<script>x');
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(page).toContain('value="a,b"');
    expect(page).toContain('<p class="error" id="sign-in-subject-error">No control characters.</p>');
    expect(page).toContain('aria-invalid="true"');
    expect(page).toContain('role="alert"');
  });
});
