// Pins the DNS-rebinding guard: which Origin and Host headers pass, and that refusals are 403.
import type { Request, Response } from 'express';
import { originGuard } from './origin-guard';

function run(guard: ReturnType<typeof originGuard>, headers: Record<string, string>) {
  const req = { get: (name: string) => headers[name.toLowerCase()] } as unknown as Request;
  let status: number | undefined;
  let body: unknown;
  const res = {
    set() {
      return this;
    },
    status(code: number) {
      status = code;
      return this;
    },
    json(value: unknown) {
      body = value;
      return this;
    },
  } as unknown as Response;
  let passed = false;
  guard(req, res, () => {
    passed = true;
  });
  return { passed, status, body };
}

describe('originGuard', () => {
  const loopback = originGuard({ allowedOrigins: ['https://app.example.com'], listenHost: '127.0.0.1' });
  const open = originGuard({ allowedOrigins: [], listenHost: '0.0.0.0' });

  it.each([
    [{ host: '127.0.0.1:3000' }],
    [{ host: 'localhost:3000', origin: 'http://localhost:5173' }],
    [{ host: '[::1]:3000', origin: 'http://[::1]:8080' }],
    [{ host: 'app.example.com', origin: 'https://app.example.com/' }],
  ])('lets %j through on a loopback listener', (headers) => {
    expect(run(loopback, headers).passed).toBe(true);
  });

  it.each([
    [{ host: '127.0.0.1:3000', origin: 'https://evil.example' }, /Forbidden origin/],
    [{ host: 'rebound.evil.example:3000' }, /Forbidden host/],
    [{ host: '' }, /Forbidden host/],
  ])('refuses %j with 403', (headers, message) => {
    const { passed, status, body } = run(loopback, headers);
    expect(passed).toBe(false);
    expect(status).toBe(403);
    expect((body as { error: { message: string } }).error.message).toMatch(message);
  });

  it('checks Host on a listener that is not loopback too: a rebound name is refused, naming ALLOWED_HOSTS', () => {
    const { status, body } = run(open, { host: 'rebound.evil.example:3000' });
    expect(status).toBe(403);
    expect((body as { error: { message: string } }).error.message).toMatch(/ALLOWED_HOSTS/);
    // Loopback still passes: compose publishes the API on 127.0.0.1.
    expect(run(open, { host: '127.0.0.1:3000' }).passed).toBe(true);
  });

  it("takes this server's names from MCP_RESOURCE_URL, ALLOWED_HOSTS and the address it listens on", () => {
    const named = originGuard({
      allowedOrigins: [],
      listenHost: '10.0.0.5',
      allowedHosts: ['mcp.internal', '[fd00::1]'],
      resourceUrl: 'https://mcp.example.com/mcp',
    });
    for (const host of ['mcp.example.com', 'MCP.internal:3000', '10.0.0.5:3000', '[fd00::1]:3000', '127.3.4.5:3000'])
      expect(run(named, { host }).passed).toBe(true);
    expect(run(named, { host: 'mcp.example.com.evil.example' }).status).toBe(403);
    expect(run(named, { host: 'mcp.example.com', origin: 'https://other.example' }).status).toBe(403);
  });
});
