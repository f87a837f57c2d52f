/**
 * The gateway's own credential at an upstream, as an `Authorization` header for each request: none,
 * a static bearer token, or an access token it gets from the upstream's authorization server by the
 * OAuth client-credentials grant (client_secret_basic), kept until shortly before it expires and
 * got again after the upstream answers 401 (a revoked or rotated token). Never the caller's token.
 */
import type { ClientCredentials } from '../upstreams/upstream-declaration';
import { boundedFetch } from './bounded-fetch';

export class UpstreamTokenRefused extends Error {
  override readonly name = 'UpstreamTokenRefused';
}

export interface AccessTokens {
  /** The header value to send now, if any. */
  header(): Promise<string | undefined>;
  /** Forgets a token the upstream refused, so the next request gets another. */
  refused(): void;
  /** Whether `refused` can help: a token it got, not a fixed one. */
  readonly renewable: boolean;
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The most a token response may hold, and how long it may take when the upstream names no timeout. */
const MAX_TOKEN_RESPONSE_BYTES = 65_536;
const DEFAULT_TOKEN_TIMEOUT_MS = 30_000;

/** A token is used until this long before it expires (a token living less than twice this: half its life). */
const EXPIRY_MARGIN_MS = 30_000;
/** A token whose response names no lifetime is kept this long. */
const UNSTATED_LIFETIME_S = 300;

export function accessTokens(
  credential: { authorization?: string; clientCredentials?: ClientCredentials; callTimeoutMs?: number },
  fetchImpl: Fetch = fetch,
  now: () => number = Date.now,
): AccessTokens {
  const grant = credential.clientCredentials;
  if (!grant)
    return { header: () => Promise.resolve(credential.authorization), refused: () => undefined, renewable: false };
  let current: Promise<{ header: string; renewAt: number }> | undefined;

  async function fetchToken() {
    // Bounded like a call: a token endpoint that hangs or answers without end fails the call.
    const response = await boundedFetch(MAX_TOKEN_RESPONSE_BYTES, fetchImpl)(grant!.tokenUrl, {
      method: 'POST',
      redirect: 'error',
      signal: AbortSignal.timeout(credential.callTimeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS),
      headers: {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(grant!.clientId)}:${encodeURIComponent(grant!.clientSecret)}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        ...(grant!.scope ? { scope: grant!.scope } : {}),
        ...(grant!.resource ? { resource: grant!.resource } : {}),
      }),
    });
    const text = await response.text();
    let body: { access_token?: unknown; token_type?: unknown; expires_in?: unknown } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // Reported below with the status.
    }
    if (!response.ok || typeof body.access_token !== 'string')
      throw new UpstreamTokenRefused(
        `its token endpoint answered HTTP ${response.status} without an access token: ${text.slice(0, 200)}`,
      );
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : UNSTATED_LIFETIME_S) * 1000;
    return {
      header: `Bearer ${body.access_token}`,
      renewAt: now() + (lifetimeMs > 2 * EXPIRY_MARGIN_MS ? lifetimeMs - EXPIRY_MARGIN_MS : lifetimeMs / 2),
    };
  }

  return {
    renewable: true,
    async header() {
      const held = current && (await current.catch(() => undefined));
      if (!held || now() >= held.renewAt) {
        current = fetchToken();
        current.catch(() => (current = undefined));
      }
      return (await current!).header;
    },
    refused() {
      current = undefined;
    },
  };
}

/** `base` with the credential's header on every request, and one more try with a new token after a 401. */
export function authorizedFetch(tokens: AccessTokens, base: Fetch = fetch): Fetch {
  const send = async (url: string | URL, init: RequestInit | undefined) => {
    const header = await tokens.header();
    const headers = new Headers(init?.headers);
    if (header) headers.set('authorization', header);
    return base(url, { ...init, headers });
  };
  return async (url, init) => {
    const response = await send(url, init);
    if (response.status !== 401 || !tokens.renewable) return response;
    await response.body?.cancel().catch(() => undefined);
    tokens.refused();
    return send(url, init);
  };
}
