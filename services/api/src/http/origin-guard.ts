/**
 * DNS-rebinding protection (Streamable HTTP: servers MUST validate a present Origin). A request
 * with no Origin (not a browser) passes; a browser origin passes if it is loopback, the server's
 * own host, or listed in ALLOWED_ORIGINS. Anything else gets 403 before any work is done.
 */
import type { RequestHandler } from 'express';
import { INVALID_REQUEST } from '../../../../lib/protocol/json-rpc-codes';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function originGuard(allowed: ReadonlyArray<string>): RequestHandler {
  const allowList = new Set(allowed.map((origin) => origin.toLowerCase()));
  return (req, res, next) => {
    const origin = req.get('origin');
    if (origin === undefined) return next();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    const ownHost = req.get('host')?.toLowerCase();
    if (parsed && (LOOPBACK.has(parsed.hostname) || parsed.host.toLowerCase() === ownHost || allowList.has(parsed.origin.toLowerCase()))) {
      return next();
    }
    res.status(403).json({ jsonrpc: '2.0', id: null, error: { code: INVALID_REQUEST, message: `Forbidden origin: ${origin}` } });
  };
}
