/**
 * DNS-rebinding protection (Streamable HTTP: servers MUST validate a present Origin).
 *
 * - A browser `Origin` must be loopback or listed in ALLOWED_ORIGINS; no Origin (not a browser)
 *   passes.
 * - The `Host` header must name this server, on every listener (a server on 0.0.0.0 in a LAN is
 *   as reachable by a rebound name as one on 127.0.0.1): loopback, the address it listens on,
 *   MCP_RESOURCE_URL's host, a host of ALLOWED_ORIGINS, or one listed in ALLOWED_HOSTS. A rebound
 *   DNS name is refused even without an Origin (a `GET /sse` needs none).
 * Refusals are 403 before any work is done.
 */
import type { RequestHandler } from 'express';
import { forbiddenHost, forbiddenOrigin } from '../../../../lib/protocol/error-catalog';
import { replyWithError } from './error-reply';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/** localhost, 127/8 and ::1. */
const isLoopback = (hostname: string) => LOOPBACK.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);

export interface OriginGuardOptions {
  allowedOrigins: ReadonlyArray<string>;
  /** HOST: the address the API listens on (a wildcard adds nothing). */
  listenHost: string;
  /** ALLOWED_HOSTS. */
  allowedHosts?: ReadonlyArray<string>;
  /** MCP_RESOURCE_URL, whose host is this server's public name. */
  resourceUrl?: string;
}

function hostnameOf(value: string, asUrl: boolean): string | undefined {
  try {
    return new URL(asUrl ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function originGuard(options: OriginGuardOptions): RequestHandler {
  const allowedOrigins = new Set(options.allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, '')));
  const listen = options.listenHost.toLowerCase();
  const allowedHosts = new Set(
    [
      ...[...allowedOrigins].map((o) => hostnameOf(o, true)),
      ...(options.allowedHosts ?? []).map((h) => hostnameOf(h, false)),
      options.resourceUrl !== undefined ? hostnameOf(options.resourceUrl, true) : undefined,
      WILDCARD.has(listen)
        ? undefined
        : hostnameOf(listen.includes(':') && !listen.startsWith('[') ? `[${listen}]` : listen, false),
    ].filter((h): h is string => !!h),
  );

  return (req, res, next) => {
    const origin = req.get('origin');
    if (origin !== undefined) {
      const hostname = hostnameOf(origin, true);
      const allowed =
        (hostname && LOOPBACK.has(hostname)) || allowedOrigins.has(origin.toLowerCase().replace(/\/$/, ''));
      if (!allowed) return replyWithError(res, 'transport', forbiddenOrigin(origin));
    }
    const host = hostnameOf(req.get('host') ?? '', false);
    if (!host || !(isLoopback(host) || allowedHosts.has(host)))
      return replyWithError(res, 'transport', forbiddenHost(req.get('host')));
    next();
  };
}
