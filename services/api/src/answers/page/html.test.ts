import { escapeHtml, html, raw } from './html';

describe('html', () => {
  it('escapes every interpolation, in text and in attributes', () => {
    const hostile = `<script>alert("x")</script>' onmouseover='&`;
    expect(html`<p title="${hostile}">${hostile}</p>`.toString()).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;&amp;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;&amp;</p>',
    );
  });

  it('inserts markup from templates and raw as it is, and escapes the text inside them', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}${raw('<br>')}</p>`.toString()).toBe('<p><b>&lt;i&gt;</b><br></p>');
  });

  it('joins lists, escaping each item, and leaves out nothing', () => {
    expect(html`<ul>${['<a>', html`<li>${'&'}</li>`, [1, undefined, null, false]]}</ul>`.toString()).toBe(
      '<ul>&lt;a&gt;<li>&amp;</li>1</ul>',
    );
    expect(html`${0}`.toString()).toBe('0');
  });

  it('escapes the five characters HTML gives meaning to', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
    expect(escapeHtml('plain text é')).toBe('plain text é');
  });
});
