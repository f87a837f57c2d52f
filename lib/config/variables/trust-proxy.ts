/**
 * TRUST_PROXY: which proxies in front of the API are believed about the client (X-Forwarded-For)
 * and the scheme (X-Forwarded-Proto), as Express's `trust proxy` takes it: nothing (the default),
 * a hop count, or the proxies' addresses, networks and named ranges. Trusting every hop (`true`)
 * is refused: any client could then claim any address, and the scheme it came by.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';

/** Express's `trust proxy`: nothing forwarded is believed, a hop count, or the proxies' addresses and networks. */
export type TrustProxy = false | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * A network that holds every client address: trusting every hop (`true`) by another name. A /0 of
 * either family, and the IPv4-mapped IPv6 range (`::ffff:0:0/96` or wider), which holds every IPv4
 * client as Express compares a dual-stack socket's addresses.
 */
function holdsEveryClient(address: string, prefix: number): boolean {
  if (prefix === 0) return true;
  return isIPv6(address) && prefix <= 96 && /^::ffff:(0:0|0\.0\.0\.0)$/i.test(address);
}

/** One entry: a named range, an address, or a network (`address/prefix`) short of every address. */
function isProxyEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || address === undefined) return false;
  const bits = isIPv4(address) ? 32 : isIPv6(address) ? 128 : 0;
  if (bits === 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= bits && !holdsEveryClient(address, Number(prefix));
}

/** TRUST_PROXY as Express's `trust proxy` takes it, or the problem with it (a string). */
export function parseTrustProxy(value: string): TrustProxy | string {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === '' || trimmed === 'false') return false;
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    return hops >= 1 && hops <= 10 ? hops : 'a hop count is 1 to 10';
  }
  const entries = trimmed
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !isProxyEntry(entry));
  return bad === undefined ? entries : `"${bad}" is not an address, a network or a named range`;
}

/** The variable's kind: the text as given (its default spelled as compose passes it), checked here. */
export const trustProxy = () =>
  z
    .string()
    .default('')
    .refine((value) => typeof parseTrustProxy(value) !== 'string', {
      message:
        'must be proxy addresses or networks, comma-separated (10.0.0.0/8, loopback, linklocal, uniquelocal), or a hop count from 1 to 10; not true, nor a network of every address (0.0.0.0/0, ::/0), which would believe any client',
    });
