// Pins the Origin half of the DNS-rebinding guard: which browser origins pass, and that refusals are 403.
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
  const guard = originGuard({ allowedOrigins: ['https://app.example.com'] });

  it.each([
    [{ host: '127.0.0.1:3000' }],
    [{ host: 'localhost:3000', origin: 'http://localhost:5173' }],
    [{ host: '[::1]:3000', origin: 'http://[::1]:8080' }],
    [{ host: 'app.example.com', origin: 'https://app.example.com/' }],
  ])('lets %j through', (headers) => {
    expect(run(guard, headers).passed).toBe(true);
  });

  it.each([
    [{ host: '127.0.0.1:3000', origin: 'https://evil.example' }],
    [{ host: '127.0.0.1:3000', origin: 'https://app.example.com.evil.example' }],
    [{ host: '127.0.0.1:3000', origin: 'null' }],
  ])('refuses %j with 403', (headers) => {
    const { passed, status, body } = run(guard, headers);
    expect(passed).toBe(false);
    expect(status).toBe(403);
    expect((body as { error: { message: string } }).error.message).toMatch(/Forbidden origin/);
  });
});
