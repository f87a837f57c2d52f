/**
 * What a receiver's answer means for a delivery: 2xx is delivered; a timeout (408), a push-back
 * (429) or a server error (5xx) is worth trying again; any other status says the receiver refused
 * this message, and will refuse it again (a 4xx, or a redirect the service does not follow, since
 * a signed body should reach only the URL configured).
 */

export type DeliveryVerdict = { kind: 'delivered' } | { kind: 'retry'; afterMs?: number } | { kind: 'refused' };

/** `Retry-After` in ms (seconds or an HTTP date, from `nowMs`), or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, nowMs: number): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export function deliveryVerdict(status: number, retryAfter?: number): DeliveryVerdict {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 408 || status === 429 || status >= 500)
    return retryAfter !== undefined ? { kind: 'retry', afterMs: retryAfter } : { kind: 'retry' };
  return { kind: 'refused' };
}
