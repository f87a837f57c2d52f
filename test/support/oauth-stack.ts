/**
 * The service as an OAuth 2.1 resource server in front of a real authorization server
 * (authorization-server.ts): the API on a port chosen first, so its canonical URI
 * (MCP_RESOURCE_URL) is known before it starts, trusting the test issuer, requiring the scope
 * `mcp`, with no clock tolerance and the shortest JWKS cooldown the service accepts (a test of a
 * rotated key waits it out: JWKS_COOLDOWN_MS), and introspecting opaque tokens as the client `rs`.
 * The test clients are principals: alice, bob and carol get JWTs; olga gets opaque tokens; brief
 * gets tokens that live one second; dana may be granted `refunds:approve`.
 */
import { importJWK, SignJWT } from 'jose';
import { freePort } from '../../cli/dev/local-stack/free-port';
import type { HandlerSet } from '@durable-mcp/handlers';
import { answerApiResourceOf, JWKS_COOLDOWN_FLOOR_MS, sseResourceOf } from '../../lib/auth/auth-config';
import { startAuthorizationServer, type AuthorizationServer, type TestClient } from './authorization-server';
import { startTestService, type TestService } from './test-service';

const client = (name: string, scope?: string): TestClient => ({
  client_id: name,
  client_secret: `${name}-secret-for-the-tests-only`,
  ...(scope !== undefined ? { scope } : {}),
});

export const CLIENTS = {
  alice: client('alice', 'mcp files:read'),
  bob: client('bob', 'mcp'),
  carol: client('carol', 'mcp'),
  olga: client('olga', 'mcp'),
  brief: client('brief', 'mcp'),
  /** An approver: may be granted `refunds:approve`, which questions can be addressed to. */
  dana: client('dana', 'mcp refunds:approve'),
  /** The resource server's own client, for introspection. */
  rs: client('rs'),
} as const;

export type ClientName = Exclude<keyof typeof CLIENTS, 'rs'>;

/** The answer page's client at the issuer (the authorization code flow), when the page is on. */
export const PAGE_CLIENT = { clientId: 'answer-page', clientSecret: 'answer-page-secret-for-the-tests-only' };

/** The stack's OAUTH_JWKS_COOLDOWN_MS, the floor: after a key-set fetch, the next waits this long. */
export const JWKS_COOLDOWN_MS = JWKS_COOLDOWN_FLOOR_MS;

/** A resource the authorization server issues tokens for that is not this server. */
export const ELSEWHERE = 'http://127.0.0.1:9/elsewhere/mcp';

export interface OAuthStack {
  as: AuthorizationServer;
  service: TestService;
  /** The canonical URI of /mcp, and the 2024-11-05 transport's. */
  resource: string;
  sseResource: string;
  /** The answer API's resource (ANSWER_API_RESOURCE_URL's default: beside /mcp). */
  answersResource: string;
  /** `Bearer <token>` for a client, issued for /mcp with the scope `mcp` (or as `request` says). */
  bearer(name: ClientName, request?: { resource?: string; scope?: string }): Promise<string>;
  /**
   * `Bearer <token>` for a client as a service at the answer API: the client-credentials grant for
   * the answer API's resource, with `scope` (none unless told).
   */
  serviceBearer(name: ClientName, scope?: string): Promise<string>;
  /**
   * `Bearer <token>` for a person (`subject`) through an app of theirs (`clientId`), as an
   * authorization-code grant would issue it: the server's own key signs it (the client-credentials
   * grant the tests use names no person).
   */
  personBearer(
    subject: string,
    clientId: string,
    scope?: string,
    claims?: Record<string, unknown>,
    audience?: string,
  ): Promise<string>;
  /** The principal key a client's tokens make. */
  principal(name: ClientName): string;
  close(): Promise<void>;
}

export async function startOAuthStack(
  env: Record<string, string> = {},
  options: {
    handlers?: HandlerSet;
    /** MCP_RESOURCE_URL's path: `/mcp` unless told (`''`: the origin itself is the protected resource). */
    resourcePath?: string;
    /** The API's port, when something must know it before the service starts (an issuer's redirect URI). */
    port?: number;
    /**
     * The answer page on, signing people in at this same issuer (one issuer for /mcp's tokens and
     * the page, as config.ts requires): its accounts' claims by login.
     */
    answerPage?: { accounts: Record<string, Record<string, unknown>> };
  } = {},
): Promise<OAuthStack> {
  const port = options.port ?? (await freePort());
  const resource = `http://127.0.0.1:${port}${options.resourcePath ?? '/mcp'}`;
  const sseResource = sseResourceOf(resource);
  const answersResource = answerApiResourceOf(resource);
  const origin = new URL(resource).origin;
  const { answerPage } = options;
  const as = await startAuthorizationServer({
    clients: Object.values(CLIENTS),
    resources: {
      [resource]: 'mcp files:read refunds:approve',
      [sseResource]: 'mcp',
      [ELSEWHERE]: 'mcp',
      [answersResource]: 'refunds:approve',
    },
    opaqueClients: ['olga'],
    shortLivedClients: ['brief'],
    ...(answerPage
      ? {
          codeFlow: {
            clients: [
              {
                client_id: PAGE_CLIENT.clientId,
                client_secret: PAGE_CLIENT.clientSecret,
                token_endpoint_auth_method: 'client_secret_basic',
                redirect_uris: [`${origin}/answers/callback`],
                grant_types: ['authorization_code'],
                response_types: ['code'],
              },
            ],
            accounts: answerPage.accounts,
          },
        }
      : {}),
  });
  let service: TestService;
  try {
    service = await startTestService(
      {
        PORT: String(port),
        AUTH_MODE: 'oauth',
        MCP_RESOURCE_URL: resource,
        OAUTH_ISSUERS: as.issuer,
        OAUTH_REQUIRED_SCOPES: 'mcp',
        OAUTH_CLOCK_TOLERANCE_S: '0',
        OAUTH_JWKS_COOLDOWN_MS: String(JWKS_COOLDOWN_MS),
        OAUTH_REQUEST_TIMEOUT_MS: '2000',
        OAUTH_INTROSPECTION_CLIENT_ID: CLIENTS.rs.client_id,
        OAUTH_INTROSPECTION_CLIENT_SECRET: CLIENTS.rs.client_secret,
        ...(answerPage
          ? {
              ANSWER_OIDC_ISSUER: as.issuer,
              ANSWER_OIDC_CLIENT_ID: PAGE_CLIENT.clientId,
              ANSWER_OIDC_CLIENT_SECRET: PAGE_CLIENT.clientSecret,
              ANSWER_PUBLIC_URL: origin,
            }
          : {}),
        ...env,
      },
      options.handlers ? { handlers: options.handlers } : {},
    );
  } catch (error) {
    await as.stop();
    throw error;
  }
  return {
    as,
    service,
    resource,
    sseResource,
    answersResource,
    async bearer(name, request = {}) {
      return `Bearer ${await as.token(CLIENTS[name], { resource, scope: 'mcp', ...request })}`;
    },
    async serviceBearer(name, scope) {
      return `Bearer ${await as.token(CLIENTS[name], { resource: answersResource, ...(scope !== undefined ? { scope } : {}) })}`;
    },
    async personBearer(subject, clientId, scope = 'mcp', claims = {}, audience = resource) {
      const key = as.keys[0]!;
      const token = await new SignJWT({ ...claims, client_id: clientId, scope })
        .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
        .setIssuer(as.issuer)
        .setAudience(audience)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(await importJWK(key, 'RS256'));
      return `Bearer ${token}`;
    },
    principal: (name) => `${as.issuer}|${name}`,
    async close() {
      await service.close();
      await as.stop();
    },
  };
}
