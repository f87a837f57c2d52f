/**
 * The bot's own access token: the OAuth client-credentials grant at BOT_TOKEN_URL, for the
 * service's answer API (its own resource, RFC 8707 `resource`) and the bot's scope, kept until shortly before it
 * expires. The client authenticates with HTTP Basic (`client_secret_basic`).
 */
export interface TokenSource {
  /** A token that is valid now (fetched when there is none, or the last is about to expire). */
  get(): Promise<string>;
  /** Forgets the token (the service refused it), so the next `get` fetches another. */
  forget(): void;
}

/** A token is renewed this long before the expiry its issuer gave. */
const EARLY_MS = 30_000;

export function clientCredentials(options: {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  resource: string;
  scope: string;
  timeoutMs: number;
}): TokenSource {
  let current: { token: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;
  // RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined.
  const basic = Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString('base64');

  async function fetchToken(): Promise<string> {
    const response = await fetch(options.tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: options.resource,
        ...(options.scope !== '' ? { scope: options.scope } : {}),
      }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const body = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    };
    if (!response.ok || typeof body.access_token !== 'string')
      // The issuer's error code only: its description might echo what was sent.
      throw new Error(`the token endpoint refused the bot's client (${response.status} ${String(body.error ?? '')})`);
    const lifetimeMs = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 300_000;
    current = { token: body.access_token, renewAt: Date.now() + Math.max(0, lifetimeMs - EARLY_MS) };
    return body.access_token;
  }

  return {
    get() {
      if (current && Date.now() < current.renewAt) return Promise.resolve(current.token);
      // One request at a time: callers that ask meanwhile share it.
      pending ??= fetchToken().finally(() => (pending = undefined));
      return pending;
    },
    forget() {
      current = undefined;
    },
  };
}
