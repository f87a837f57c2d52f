// The answer page's cookies take their Secure and their name from ANSWER_PUBLIC_URL, never from
// how the request arrived (a TLS proxy the API does not trust still leaves them Secure).
import express from 'express';
import type { AddressInfo } from 'node:net';
import { answerCookies } from './cookies';

async function setCookieOf(publicOrigin: string, headers: Record<string, string> = {}) {
  const cookies = answerCookies(publicOrigin);
  const app = express(); // no `trust proxy`: X-Forwarded-Proto is not believed
  app.get('/answers/x', (req, res) => {
    cookies.set(res, 'session', 'v', 60_000);
    res.json({ secure: req.secure, read: cookies.read(req, 'session') ?? null });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/answers/x`, { headers });
    return { setCookie: response.headers.get('set-cookie')!, body: (await response.json()) as Record<string, unknown> };
  } finally {
    server.close();
  }
}

describe('answer page cookies', () => {
  it('are Secure and __Host- under an https public origin, though the request came as plain http', async () => {
    const { setCookie, body } = await setCookieOf('https://answers.example', { 'x-forwarded-proto': 'http' });
    expect(body.secure).toBe(false);
    expect(setCookie).toMatch(/^__Host-durable_mcp_answer_session=v;/);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).toMatch(/; Path=\/;/);
    expect(setCookie).not.toMatch(/Domain=/i);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
  });

  it('are read under their own name only: a bare-named cookie is not the __Host- one', async () => {
    const bare = await setCookieOf('https://answers.example', { cookie: 'durable_mcp_answer_session=forged' });
    expect(bare.body.read).toBeNull();
    const prefixed = await setCookieOf('https://answers.example', { cookie: '__Host-durable_mcp_answer_session=v2' });
    expect(prefixed.body.read).toBe('v2');
  });

  it('are bare and not Secure under an http (loopback) public origin', async () => {
    const { setCookie } = await setCookieOf('http://127.0.0.1:3000');
    expect(setCookie).toMatch(/^durable_mcp_answer_session=v;/);
    expect(setCookie).not.toMatch(/Secure/);
  });

  it('never share a name with the codec endpoint’s cookie', () => {
    const names = (['session', 'pending-sign-in', 'dev-sign-in'] as const).flatMap((kind) => [
      answerCookies('https://a.example').name(kind),
      answerCookies('http://127.0.0.1:1').name(kind),
    ]);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('durable_mcp_codec');
  });
});
