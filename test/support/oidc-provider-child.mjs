// A real OAuth 2.1 / OpenID authorization server for the tests (the npm package oidc-provider, not a
// mock), run as a child process of the test harness (test/support/authorization-server.ts, which it is named apart from so that an import of that module never finds this file): it is
// ES modules only, which jest's CommonJS loader does not load in process.
//
// It issues access tokens by the client-credentials grant (RFC 6749 §4.4) for the resources it is
// told of (RFC 8707 resource indicators: the token's audience is the resource asked for), as JWTs
// (RFC 9068, `typ: at+jwt`) or, for the clients listed as opaque, as opaque tokens it answers
// introspection (RFC 7662) for. It signs with the private keys it is given, so the harness can
// rotate them by restarting it, and publishes RFC 8414 metadata and its JWKS.
//
// With `codeFlow`, it also signs people in by the authorization code flow (PKCE required) for the
// clients it lists, as the answer page does: its dev interactions are the login and consent pages
// a test fills in over HTTP like a browser (any login is accepted, and becomes the account's `sub`),
// so one issuer issues the tokens of /mcp and the sign-ins of the page, as a deployment's does.
//
// Configuration: the JSON in AS_CONFIG:
//   { port, keys: [private JWK], clients: [{ client_id, client_secret, scope }],
//     resources: { "<resource URI>": "<scopes it grants>" }, opaqueClients: [id], shortLivedClients: [id],
//     codeFlow?: { clients: [client metadata], accounts: { "<login>": { claims } } } }
// Prints {"issuer": "..."} on one line once it listens; stops on SIGTERM.
import Provider, { errors } from 'oidc-provider';

const config = JSON.parse(process.env.AS_CONFIG ?? '{}');
const issuer = `http://127.0.0.1:${config.port}`;
/** Seconds a token lives: long enough for a test, or one second for the clients whose tokens must expire. */
const ttlOf = (clientId) => (config.shortLivedClients?.includes(clientId) ? 1 : 300);

const codeFlow = config.codeFlow;
/** What the code flow needs: accounts, the claims of each scope, its interactions and PKCE. */
const signIns = codeFlow
  ? {
      cookies: { keys: ['authorization-server-test-cookie-key'] },
      findAccount: (_ctx, id) => ({
        accountId: id,
        claims: () => ({ sub: id, ...(codeFlow.accounts[id] ?? {}) }),
      }),
      claims: { openid: ['sub'], profile: ['name', 'groups'], email: ['email', 'email_verified'] },
      pkce: { required: () => true },
    }
  : {};

const provider = new Provider(issuer, {
  ...signIns,
  jwks: { keys: config.keys },
  clients: [
    ...(codeFlow?.clients ?? []),
    ...config.clients.map((client) => ({
      client_id: client.client_id,
      client_secret: client.client_secret,
      grant_types: client.scope === undefined ? [] : ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      ...(client.scope !== undefined ? { scope: client.scope } : {}),
    })),
  ],
  scopes: [...new Set(Object.values(config.resources).flatMap((scopes) => scopes.split(' ')))],
  features: {
    devInteractions: { enabled: codeFlow !== undefined },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // A request that names no resource gets a token with no audience of ours (an opaque one).
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo(_ctx, resource, client) {
        const scope = config.resources[resource];
        if (scope === undefined) throw new errors.InvalidTarget();
        return {
          scope,
          audience: resource,
          accessTokenTTL: ttlOf(client.clientId),
          accessTokenFormat: config.opaqueClients?.includes(client.clientId) ? 'opaque' : 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
  ttl: {
    ClientCredentials: (_ctx, _token, client) => ttlOf(client.clientId),
    AccessToken: 300,
    AuthorizationCode: 60,
    IdToken: 300,
    Grant: 300,
    Session: 300,
    Interaction: 300,
  },
});
// Quiet about what a test server does on purpose (no adapter, development defaults).
provider.on('server_error', (_ctx, error) => console.error('server_error', error));

const server = provider.listen(config.port, '127.0.0.1');
server.once('listening', () => process.stdout.write(`${JSON.stringify({ issuer })}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
