// A real OpenID provider for the answer page's sign-in tests (the npm package oidc-provider, not a
// mock), run as a child process of answer-sign-in.int.test.ts: it is ES modules only, which jest's
// CommonJS loader does not load in process. Its dev interactions are the login and consent pages
// the test fills in over HTTP like a browser: any login is accepted, and becomes the account's `sub`.
//
// Configuration: the JSON in ISSUER_CONFIG:
//   { port, keys: [private JWK], clients: [client metadata], accounts: { "<login>": { claims } } }
// `groups` and `name` are claims of the `profile` scope; the code flow's ID token carries only
// `sub` (conformIdTokenClaims), so the relying party finds them at userinfo, as with many providers.
// Prints {"issuer": "..."} on one line once it listens; stops on SIGTERM.
import Provider from 'oidc-provider';

const config = JSON.parse(process.env.ISSUER_CONFIG ?? '{}');
const issuer = `http://127.0.0.1:${config.port}`;

const provider = new Provider(issuer, {
  jwks: { keys: config.keys },
  clients: config.clients,
  cookies: { keys: ['answer-sign-in-test-cookie-key'] },
  findAccount: (_ctx, id) => ({
    accountId: id,
    claims: () => ({ sub: id, ...(config.accounts[id] ?? {}) }),
  }),
  claims: { openid: ['sub'], profile: ['name', 'groups'], email: ['email', 'email_verified'] },
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  ttl: { AccessToken: 300, AuthorizationCode: 60, IdToken: 300, Grant: 300, Session: 300, Interaction: 300 },
});
provider.on('server_error', (_ctx, error) => console.error('server_error', error));

const server = provider.listen(config.port, '127.0.0.1');
server.once('listening', () => process.stdout.write(`${JSON.stringify({ issuer })}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
