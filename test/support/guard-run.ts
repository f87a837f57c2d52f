/**
 * Runs an express middleware (a guard) on a request with `headers` and reports whether it let the
 * request through, or the status and body it answered with: for unit tests of the API's guards.
 */
import type { Request, RequestHandler, Response } from 'express';

export function runGuard(guard: RequestHandler, headers: Record<string, string>) {
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
  void guard(req, res, () => {
    passed = true;
  });
  return { passed, status, body };
}
