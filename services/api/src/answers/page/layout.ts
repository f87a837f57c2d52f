/**
 * The frame of every answer page: `lang="en"`, a viewport so it reads on a phone, and one small
 * inline stylesheet. No script and no external asset, so the page works with JavaScript off and
 * under a strict Content-Security-Policy (`default-src 'none'; style-src 'unsafe-inline'`).
 */
import { html, raw, type Html } from './html';

const STYLE = raw(
  [
    'body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:0 auto;padding:1rem;color:#1a1a1a;background:#fff}',
    'h1{font-size:1.4rem;margin:.5rem 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}',
    'header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;font-size:.9rem}',
    'header form{margin:0}a{color:#0645ad}',
    'dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}dt{font-weight:600}dd{margin:0;min-width:0}',
    'code{overflow-wrap:anywhere;font-size:.9rem}',
    'pre.value{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}details.value summary{cursor:pointer}',
    '.answer .text{white-space:pre-wrap;overflow-wrap:anywhere}.taken{margin:0 0 1rem}',
    '.message{white-space:pre-wrap;border-left:4px solid #888;padding:.25rem .75rem;margin:1rem 0}',
    '.field{margin:1rem 0}.field>label,legend{display:block;font-weight:600}fieldset{border:0;padding:0;margin:0}',
    '.option{display:flex;gap:.5rem;align-items:center;margin:.25rem 0;font-weight:400}',
    'input:not([type=checkbox]):not([type=radio]),select{box-sizing:border-box;width:100%;font:inherit;padding:.5rem;margin-top:.25rem}',
    'input[type=checkbox],input[type=radio]{width:1.25rem;height:1.25rem;margin:0}',
    '.hint{color:#555;font-size:.9rem;margin:.25rem 0}',
    '.error{color:#b00020;font-weight:600;margin:.25rem 0}.error::first-letter{text-transform:uppercase}',
    '.problems{border:2px solid #b00020;padding:.5rem 1rem;margin:1rem 0}',
    '.notice{background:#eef6ee;border:1px solid #4a8a4a;padding:.5rem 1rem}',
    '.banner{background:#fff4d6;border:2px solid #a15c00;padding:.5rem 1rem;margin:0 0 1rem}',
    '.actions{display:flex;gap:1rem;margin:1.5rem 0}.actions button{flex:1;font:inherit;padding:.75rem}',
    'ul.questions{list-style:none;padding:0}ul.questions li{border-top:1px solid #ddd;padding:.75rem 0}',
    '@media (max-width:30rem){dl{grid-template-columns:1fr}dd{margin-bottom:.5rem}}',
  ].join(''),
);

/**
 * A whole page: its title (the tab's and the heading's), an optional header, and its body; and,
 * first of all, the sign-in's `banner` when it has one (the development sign-in's warning).
 */
export function renderPage(page: { title: string; header?: Html; body: Html; banner?: Html }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${page.title} · durable-mcp</title>
<style>${STYLE}</style>
</head>
<body>
${page.banner}
${page.header ? html`<header>${page.header}</header>` : undefined}
<main>
<h1>${page.title}</h1>
${page.body}
</main>
</body>
</html>
`.toString();
}
