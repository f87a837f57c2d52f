/**
 * The worker's webhook settings, from the parsed variables: what needs two variables at once
 * (a receiver needs secrets; plain http depends on WEBHOOK_ALLOW_HTTP) is checked here.
 */
import { receiverUrlProblem } from './receiver-url';

export interface WebhookConfig {
  /** Receiver URLs; empty, no webhooks are sent. */
  urls: string[];
  /** `whsec_…` secrets; every one signs. */
  secrets: string[];
  timeoutMs: number;
  maxAttempts: number;
  maxIntervalMs: number;
  maxBodyBytes: number;
}

export interface WebhookEnv {
  WEBHOOK_URLS: string[];
  WEBHOOK_SECRETS: string[];
  WEBHOOK_ALLOW_HTTP: boolean;
  WEBHOOK_TIMEOUT_MS: number;
  WEBHOOK_MAX_ATTEMPTS: number;
  WEBHOOK_MAX_INTERVAL_MS: number;
  WEBHOOK_MAX_BODY_BYTES: number;
}

/**
 * The settings, or an Error naming the variable at fault (never a secret). The API reads whether
 * webhooks are on and is not given the secrets, which only the worker, the sender, needs:
 * `secretsRequired` false leaves them out of the check.
 */
export function parseWebhookConfig(env: WebhookEnv, { secretsRequired = true } = {}): WebhookConfig {
  env.WEBHOOK_URLS.forEach((url, i) => {
    const problem = receiverUrlProblem(url, env.WEBHOOK_ALLOW_HTTP);
    if (problem !== undefined) throw new Error(`WEBHOOK_URLS is malformed: URL ${i + 1} ${problem}`);
  });
  if (secretsRequired && env.WEBHOOK_URLS.length > 0 && env.WEBHOOK_SECRETS.length === 0)
    throw new Error('WEBHOOK_SECRETS is missing: WEBHOOK_URLS is set, and every webhook is signed');
  return {
    urls: env.WEBHOOK_URLS,
    secrets: env.WEBHOOK_SECRETS,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
    maxIntervalMs: env.WEBHOOK_MAX_INTERVAL_MS,
    maxBodyBytes: env.WEBHOOK_MAX_BODY_BYTES,
  };
}
