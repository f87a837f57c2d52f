/**
 * The receiver's side: whether a request is a webhook the service signed, recently. A bot built
 * on the service (Slack, Teams, email, ChatOps) calls `verifyWebhook` on the raw body before it
 * parses or acts on it. It refuses a message without the three headers, with a timestamp outside
 * the tolerance either way (a replayed or pre-dated message), or with no signature that one of the
 * receiver's secrets makes; signatures are compared in constant time.
 */
import { timingSafeEqual } from 'node:crypto';
import { signatureOf } from './signature';
import { secretKey } from './webhook-secret';

export type WebhookRefusal = 'missing_headers' | 'malformed_timestamp' | 'stale' | 'future' | 'bad_signature';

export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: WebhookRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Request headers as fetch (`Headers`) or node:http (`IncomingHttpHeaders`) give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the timestamp may be from now, either way, in seconds (default 300). */
  toleranceS?: number;
  /** Now, epoch ms (default Date.now()). */
  now?: number;
}

export interface VerifiedWebhook {
  /** `webhook-id`: the same on every delivery of one event, the key to drop repeats by. */
  id: string;
  /** `webhook-timestamp`, Unix seconds. */
  timestamp: number;
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

/** Whether `given` (base64) is `expected`, without an early exit that times where they part. */
function sameSignature(given: string, expected: Buffer): boolean {
  const bytes = Buffer.from(given, 'base64');
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}

/**
 * Verifies `body` (exactly as received) against its headers and `secrets` (`whsec_…`, several
 * while they rotate); returns its id and timestamp, or throws a WebhookVerificationError.
 */
export function verifyWebhook(
  headers: WebhookHeaders,
  body: string | Uint8Array,
  secrets: string | readonly string[],
  { toleranceS = 300, now = Date.now() }: VerifyOptions = {},
): VerifiedWebhook {
  const id = headerOf(headers, 'webhook-id');
  const timestampText = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  if (!id || !timestampText || !signatures)
    throw new WebhookVerificationError(
      'missing_headers',
      'webhook-id, webhook-timestamp and webhook-signature are required',
    );
  if (!/^\d{1,15}$/.test(timestampText))
    throw new WebhookVerificationError('malformed_timestamp', 'webhook-timestamp is not Unix seconds');
  const timestamp = Number(timestampText);
  const nowS = Math.floor(now / 1000);
  if (timestamp < nowS - toleranceS) throw new WebhookVerificationError('stale', 'webhook-timestamp is too old');
  if (timestamp > nowS + toleranceS) throw new WebhookVerificationError('future', 'webhook-timestamp is in the future');

  const given = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => s.slice(3));
  const keys = (typeof secrets === 'string' ? [secrets] : secrets).map(secretKey);
  // Every pair is compared, a match or not, so the time taken says nothing about which matched.
  let matched = false;
  for (const key of keys) {
    const expected = Buffer.from(signatureOf(key, id, timestamp, body), 'base64');
    for (const signature of given) matched = sameSignature(signature, expected) || matched;
  }
  if (!matched) throw new WebhookVerificationError('bad_signature', 'no signature matches a secret');
  return { id, timestamp };
}
