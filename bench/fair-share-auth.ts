/**
 * The fair-share bench's two principals, `flood` and `quiet`: OAuth clients of a real
 * authorization server (oidc-provider, as the tests start it: test/support/authorization-server.ts)
 * that issues them tokens by the client-credentials grant, and the service's environment that
 * trusts it for the endpoint on `port`.
 */
import { startAuthorizationServer, type TestClient } from '../test/support/authorization-server';

export type BenchPrincipal = 'flood' | 'quiet';

const client = (name: BenchPrincipal): TestClient => ({
  client_id: name,
  client_secret: `${name}-secret-for-the-bench-only`,
  scope: 'mcp',
});

/** A principal's `authorization` header, renewed before its token's five minutes are up. */
export interface BearerHeaders {
  headers(): Record<string, string>;
  stop(): void;
}

/** Tokens live 300 s at the tests' issuer; each is renewed after a minute. */
const RENEW_MS = 60_000;

export interface BenchAuthorization {
  /** `principal`'s `authorization` header for the endpoint `resource`, kept fresh until `stop`. */
  bearer(principal: BenchPrincipal, resource: string): Promise<BearerHeaders>;
  /** The service's OAuth settings for its endpoint on `port`. */
  serviceEnv(port: number): Record<string, string>;
  stop(): Promise<void>;
}

const resourceOf = (port: number) => `http://127.0.0.1:${port}/mcp`;

/** The server issues tokens for the endpoints on `ports` only: the bench's services' ports, chosen first. */
export async function startBenchAuthorization(ports: readonly number[]): Promise<BenchAuthorization> {
  const server = await startAuthorizationServer({
    clients: [client('flood'), client('quiet')],
    resources: Object.fromEntries(ports.map((port) => [resourceOf(port), 'mcp'])),
  });
  return {
    async bearer(principal, resource) {
      const issue = () => server.token(client(principal), { resource, scope: 'mcp' });
      let token = await issue();
      const renew = setInterval(() => {
        issue().then(
          (fresh) => (token = fresh),
          () => undefined, // the current token is good for minutes yet: the next renewal tries again
        );
      }, RENEW_MS);
      return { headers: () => ({ authorization: `Bearer ${token}` }), stop: () => clearInterval(renew) };
    },
    serviceEnv: (port) => ({
      AUTH_MODE: 'oauth',
      MCP_RESOURCE_URL: resourceOf(port),
      OAUTH_ISSUERS: server.issuer,
      OAUTH_REQUIRED_SCOPES: 'mcp',
    }),
    stop: () => server.stop(),
  };
}
