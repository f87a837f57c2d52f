/**
 * DNS-rebinding protection on the MCP and answer API routes (Streamable HTTP: servers MUST
 * validate a present Origin): a browser `Origin` must be loopback or listed in ALLOWED_ORIGINS; no
 * Origin (not a browser) passes. Refusals are 403 before any work is done. The `Host` header is
 * checked on every route, before this (host-guard.ts).
 */
import type { RequestHandler } from 'express';
import { forbiddenOrigin } from '../../../../lib/protocol/error-catalog';
import { replyWithError } from './error-reply';
import { hostnameOf } from './host-guard';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);

export interface OriginGuardOptions {
  allowedOrigins: ReadonlyArray<string>;
}

export function originGuard(options: OriginGuardOptions): RequestHandler {
  const allowedOrigins = new Set(options.allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, '')));
  return (req, res, next) => {
    const origin = req.get('origin');
    if (origin !== undefined) {
      const hostname = hostnameOf(origin, true);
      const allowed =
        (hostname && LOOPBACK.has(hostname)) || allowedOrigins.has(origin.toLowerCase().replace(/\/$/, ''));
      if (!allowed) return replyWithError(res, 'transport', forbiddenOrigin(origin));
    }
    next();
  };
}
