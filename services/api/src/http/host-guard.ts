/**
 * DNS-rebinding protection for every route: the `Host` header must name this server. A page that
 * rebinds its own DNS name to this server's address is same-origin with it in the browser and
 * could read any response (`/metrics` without METRICS_TOKEN, `/healthz`, `/mcp`), but its requests
 * carry its own name as `Host`. So a name must be one of this server's: loopback, the address it
 * listens on, MCP_RESOURCE_URL's host, ANSWER_PUBLIC_URL's host, a host of ALLOWED_ORIGINS, or one
 * listed in ALLOWED_HOSTS. An IP address passes: no rebinding carries one (a page served from that
 * address is this server), and a load balancer's or kubelet's probe names the pod by it.
 * Refusals are 403 before any work is done, on every listener (a server on 0.0.0.0 in a LAN is as
 * reachable by a rebound name as one on 127.0.0.1).
 */
import { isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { forbiddenHost } from '../../../../lib/protocol/error-catalog';
import { replyWithError } from './error-reply';

const LOOPBACK_NAMES = new Set(['localhost']);
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

export interface HostGuardOptions {
  /** HOST: the address the API listens on (a wildcard adds nothing). */
  listenHost: string;
  /** ALLOWED_HOSTS. */
  allowedHosts?: ReadonlyArray<string>;
  /** ALLOWED_ORIGINS: each one's host is a name of this server. */
  allowedOrigins?: ReadonlyArray<string>;
  /** MCP_RESOURCE_URL and ANSWER_PUBLIC_URL: the public names of this server. */
  publicUrls?: ReadonlyArray<string>;
}

/** The lower-case host name of a URL (`asUrl`) or of a `host[:port]`; IPv6 without its brackets. */
export function hostnameOf(value: string, asUrl: boolean): string | undefined {
  try {
    const hostname = new URL(asUrl ? value : `http://${value}`).hostname.toLowerCase();
    return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  } catch {
    return undefined;
  }
}

export function hostGuard(options: HostGuardOptions): RequestHandler {
  const listen = options.listenHost.toLowerCase();
  const names = new Set(
    [
      ...(options.allowedOrigins ?? []).map((o) => hostnameOf(o, true)),
      ...(options.publicUrls ?? []).map((u) => hostnameOf(u, true)),
      ...(options.allowedHosts ?? []).map((h) => hostnameOf(h, false)),
      WILDCARD.has(listen)
        ? undefined
        : hostnameOf(listen.includes(':') && !listen.startsWith('[') ? `[${listen}]` : listen, false),
    ].filter((h): h is string => !!h),
  );
  return (req, res, next) => {
    const host = hostnameOf(req.get('host') ?? '', false);
    if (!host || !(LOOPBACK_NAMES.has(host) || isIP(host) !== 0 || names.has(host)))
      return replyWithError(res, 'transport', forbiddenHost(req.get('host')));
    next();
  };
}
