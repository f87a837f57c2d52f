import { isIPv4, isIPv6 } from 'node:net';

/** Whether `host` (a HOST value) is a loopback address: 127.0.0.0/8, ::1 (also IPv4-mapped), localhost. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost') return true;
  if (isIPv4(name)) return name.split('.')[0] === '127';
  if (!isIPv6(name)) return false;
  // The URL parser writes an IPv6 address in its one canonical form (::1, ::ffff:7f00:1).
  const canonical = new URL(`http://[${name}]`).hostname.slice(1, -1);
  return canonical === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(canonical);
}
