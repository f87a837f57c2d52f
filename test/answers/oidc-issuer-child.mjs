// A real OpenID provider for the answer page's sign-in tests (the npm package oidc-provider, not a
// mock), run as a child process of answer-sign-in.int.test.ts: it is ES modules only, which jest's
// CommonJS loader does not load in process. Its dev interactions are the login and consent pages
// the test fills in over HTTP like a browser: any login is accepted, and becomes the account's `sub`.
//
// Configuration: the JSON in ISSUER_CONFIG:
//   { port, keys: [private JWK], clients: [client metadata], accounts: { "<login>": { claims } },
//     authentication?: true }
// `groups` and `name` are claims of the `profile` scope; the code flow's ID token carries only
// `sub` (conformIdTokenClaims), so the relying party finds them at userinfo, as with many providers.
//
// With `authentication`, the ID token also says how the person signed in, as step-up needs: its
// `auth_time`, `acr` and `amr`. The login form then takes an optional `otp` field: a login with
// one is multi-factor (acr MFA_ACR, amr pwd, otp and mfa), one without is a password alone (acr
// PASSWORD_ACR, amr pwd). `max_age` is honoured as the provider does (an older sign-in logs in
// again), `prompt=login` always logs in again, and `acr_values` that the provider's session does
// not meet log in again too, as providers that step up on them do.
// Prints {"issuer": "..."} on one line once it listens; stops on SIGTERM.
import Provider, { interactionPolicy } from 'oidc-provider';

const config = JSON.parse(process.env.ISSUER_CONFIG ?? '{}');
const issuer = `http://127.0.0.1:${config.port}`;

const PASSWORD_ACR = 'urn:durable-mcp:test:password';
const MFA_ACR = 'urn:durable-mcp:test:mfa';

/** A login prompt whenever `acr_values` name none of the session's acr (not on the login that answers it). */
function policyStepping() {
  const { base, Check } = interactionPolicy;
  const policy = base();
  policy.get('login').checks.push(
    new Check('acr_values_unmet', 'a stronger sign-in is requested', (ctx) => {
      const requested = ctx.oidc.params.acr_values;
      if (requested === undefined || ctx.oidc.result?.login) return Check.NO_NEED_TO_PROMPT;
      return requested.split(' ').includes(ctx.oidc.session.acr) ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT;
    }),
  );
  return policy;
}

const provider = new Provider(issuer, {
  jwks: { keys: config.keys },
  clients: config.clients,
  cookies: { keys: ['answer-sign-in-test-cookie-key'] },
  findAccount: (_ctx, id) => ({
    accountId: id,
    claims: () => ({ sub: id, ...(config.accounts[id] ?? {}) }),
  }),
  claims: {
    openid: config.authentication ? ['sub', 'acr', 'amr', 'auth_time'] : ['sub'],
    profile: ['name', 'groups'],
    email: ['email', 'email_verified'],
  },
  ...(config.authentication ? { acrValues: [PASSWORD_ACR, MFA_ACR], interactions: { policy: policyStepping() } } : {}),
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  ttl: { AccessToken: 300, AuthorizationCode: 60, IdToken: 300, Grant: 300, Session: 300, Interaction: 300 },
});
provider.on('server_error', (_ctx, error) => console.error('server_error', error));

/** The form a request posted (urlencoded). */
async function postedForm(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

// The dev login, as it is (any login becomes `sub`), and how it authenticated: with an `otp`, MFA.
if (config.authentication)
  provider.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || !/^\/interaction\/[^/]+$/.test(ctx.path)) return next();
    const { prompt } = await provider.interactionDetails(ctx.req, ctx.res);
    if (prompt.name !== 'login') return next();
    const form = await postedForm(ctx.req);
    const mfa = (form.get('otp') ?? '') !== '';
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      {
        login: {
          accountId: form.get('login'),
          acr: mfa ? MFA_ACR : PASSWORD_ACR,
          amr: mfa ? ['pwd', 'otp', 'mfa'] : ['pwd'],
        },
      },
      { mergeWithLastSubmission: false },
    );
  });

const server = provider.listen(config.port, '127.0.0.1');
server.once('listening', () => process.stdout.write(`${JSON.stringify({ issuer })}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
