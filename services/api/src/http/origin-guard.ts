/**
 * DNS-rebinding protection (Streamable HTTP: servers MUST validate a present Origin).
 *
 * - A browser `Origin` must be loopback or listed in ALLOWED_ORIGINS; no Origin (not a browser)
 *   passes.
 * - When the API listens on loopback, the `Host` header must name loopback too (or a host in
 *   ALLOWED_ORIGINS): a rebound DNS name pointing at 127.0.0.1 is refused even without an Origin.
 * Refusals are 403 before any work is done.
 */
import type { RequestHandler } from 'express';
import { forbiddenHost, forbiddenOrigin } from '../../../../lib/protocol/error-catalog';
import { replyWithError } from './error-reply';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostnameOf(value: string, asUrl: boolean): string | undefined {
  try {
    return new URL(asUrl ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function originGuard(options: { allowedOrigins: ReadonlyArray<string>; listenHost: string }): RequestHandler {
  const allowedOrigins = new Set(options.allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, '')));
  const allowedHosts = new Set([...allowedOrigins].map((o) => hostnameOf(o, true)).filter((h): h is string => !!h));
  const loopbackOnly = LOOPBACK.has(options.listenHost.toLowerCase());

  return (req, res, next) => {
    const origin = req.get('origin');
    if (origin !== undefined) {
      const hostname = hostnameOf(origin, true);
      const allowed =
        (hostname && LOOPBACK.has(hostname)) || allowedOrigins.has(origin.toLowerCase().replace(/\/$/, ''));
      if (!allowed) return replyWithError(res, 'transport', forbiddenOrigin(origin));
    }
    if (loopbackOnly) {
      const host = hostnameOf(req.get('host') ?? '', false);
      if (!host || !(LOOPBACK.has(host) || allowedHosts.has(host)))
        return replyWithError(res, 'transport', forbiddenHost(req.get('host')));
    }
    next();
  };
}
