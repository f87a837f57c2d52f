/**
 * Signing a webhook as Standard Webhooks does (https://www.standardwebhooks.com): HMAC-SHA256 of
 * `<id>.<timestamp>.<body>` under each secret, sent as `v1,<base64>` signatures separated by
 * spaces in `webhook-signature`, beside `webhook-id` and `webhook-timestamp` (seconds). Every
 * configured secret signs, so while secrets rotate a receiver holding either verifies.
 */
import { createHmac } from 'node:crypto';
import { secretKey } from './webhook-secret';

export type WebhookSignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** The base64 HMAC-SHA256 of one message under one key (the part after `v1,`). */
export function signatureOf(key: Buffer, id: string, timestampS: number, body: string | Uint8Array): string {
  return createHmac('sha256', key).update(`${id}.${timestampS}.`).update(body).digest('base64');
}

/** The three headers of a message `id` with `body`, sent at `timestampS` (Unix seconds), signed by every secret. */
export function signWebhook(
  id: string,
  timestampS: number,
  body: string,
  secrets: readonly string[],
): WebhookSignatureHeaders {
  if (secrets.length === 0) throw new Error('a webhook needs at least one secret to be signed');
  if (!Number.isSafeInteger(timestampS)) throw new Error('a webhook timestamp is whole seconds');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampS),
    'webhook-signature': secrets
      .map((secret) => `v1,${signatureOf(secretKey(secret), id, timestampS, body)}`)
      .join(' '),
  };
}
