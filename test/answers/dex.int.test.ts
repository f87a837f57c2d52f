/**
 * The service deployed with Dex as its OpenID provider, as docs/providers/dex.md tells an operator
 * to: a real Dex built from source (test/answers/dex-issuer.ts), a real Temporal and Postgres, the
 * official 2.x MCP client. Dex issues everything: /mcp's access tokens (the password grant of the
 * client `mcp-desk`, with the audience scope that puts MCP_RESOURCE_URL in `aud`), the answer
 * page's sign-ins (its login form filled in over HTTP), and a bot's client-credentials token for
 * the answer API. What Dex does unlike the test issuer, and the service is configured for: no
 * `typ` on its access tokens (OAUTH_TOKEN_TYPES=none), audiences only by cross-client trust, no
 * `scope` claim (no OAUTH_REQUIRED_SCOPES), groups only when the `groups` scope is asked, and
 * subjects that encode the user id and connector (also a bot's: lib/auth/dex-subject.ts).
 *
 * A question addressed to a group is answered at the page by a member, and the caller's client
 * gets the result; the caller, signed in at the page, is the same person and is told they may not
 * answer; a person whose sign-in brings no groups is told so; a bot answers a question addressed
 * to it through the answer API; the official client also gets its token by its own OAuth (the
 * code flow, as a client pre-registered at Dex), asking for the audience scope because the
 * resource metadata advertises it (OAUTH_SCOPES_SUPPORTED); a token for another audience is refused.
 *
 * Dex is `DEX_BIN`, else /work/dex-bin/dex. Without it the test is skipped, saying how to build it;
 * in CI too (`CI` set), loudly: CI cannot fetch Dex's repository to build it (docs/development.md).
 */
import { randomUUID } from 'node:crypto';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { answerer, type HandlerSet } from '@durable-mcp/handlers';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { answerApiResourceOf } from '../../lib/auth/auth-config';
import { until } from '../support/until';
import { startTestService, type TestService } from '../support/test-service';
import { Browser } from './browser';
import {
  dexBinary,
  loginAtDex,
  dexSubject,
  DEX_BUILD_HINT,
  signedInThroughDex,
  startDex,
  type Dex,
  type DexClient,
} from './dex-issuer';
import { answerOnPage, questionPage } from './page-answerer';
import { refundTool } from './refund-tool';

const DEX = dexBinary();
if (!DEX) {
  const message = `dex.int.test.ts skipped: no Dex binary at ${process.env.DEX_BIN ?? '/work/dex-bin/dex'}. Build it: ${DEX_BUILD_HINT}`;
  if (process.env.CI)
    console.error(
      `\n${'!'.repeat(100)}\n!! ${message}\n!! CI cannot fetch Dex's repository to build it: this test of the Dex deployment did NOT run.\n${'!'.repeat(100)}\n`,
    );
  else console.warn(message);
}
const describeWithDex = DEX ? describe : describe.skip;

const USERS = {
  alice: { email: 'alice@example.com', name: 'Alice Caller', userID: '0a11ce00-0000-4000-8000-000000000001' },
  fiona: {
    email: 'fiona@example.com',
    name: 'Fiona Finance',
    userID: '0f10a000-0000-4000-8000-000000000002',
    groups: ['finance'],
  },
  nora: { email: 'nora@example.com', name: 'Nora Nogroups', userID: '00a00000-0000-4000-8000-000000000003' },
};

/** Where Dex sends the MCP client's browser back to (nothing listens: the test takes the code from the URL). */
const DESK_ORIGIN = 'http://127.0.0.1:9';
const DESK_REDIRECT = `${DESK_ORIGIN}/callback`;

/**
 * The MCP client's OAuth as an app registered at Dex would do it: a pre-registered confidential
 * client (Dex has no dynamic registration), the authorization code flow with PKCE, the browser's
 * part played by the test.
 */
class DeskOAuth implements OAuthClientProvider {
  authorizationUrl?: URL;
  private verifier = '';
  private stored?: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  private discovery?: Awaited<ReturnType<NonNullable<OAuthClientProvider['discoveryState']>>>;
  constructor(private readonly client: DexClient) {}
  get redirectUrl() {
    return DESK_REDIRECT;
  }
  get clientMetadata() {
    return {
      redirect_uris: [DESK_REDIRECT],
      client_name: 'MCP desk',
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_basic',
    };
  }
  clientInformation() {
    return { client_id: this.client.id, client_secret: this.client.secret };
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: NonNullable<typeof this.stored>) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: NonNullable<typeof this.discovery>) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

const handlers: HandlerSet = {
  name: 'refunds',
  tools: [
    refundTool('refund_finance', () => ({ anyOf: [answerer.group('finance')], excludeCaller: true })),
    refundTool('refund_bot', () => ({ anyOf: [answerer.service('approval-bot')] })),
  ],
};

let dex: Dex | undefined;
let service: TestService | undefined;
let origin = '';
let resource = '';
let answersResource = '';
let desk: DexClient;
let bot: DexClient;

beforeAll(async () => {
  if (!DEX) return;
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  resource = `${origin}/mcp`;
  answersResource = answerApiResourceOf(resource);
  desk = {
    id: 'mcp-desk',
    secret: 'mcp-desk-secret-for-the-tests-only',
    name: 'MCP desk',
    redirectURIs: [DESK_REDIRECT],
  };
  bot = {
    id: 'approval-bot',
    secret: 'approval-bot-secret-for-the-tests-only',
    name: 'Approval bot',
    clientCredentialsClaims: { groups: ['finance'] },
  };
  dex = await startDex(DEX, {
    users: Object.values(USERS),
    clients: [
      {
        id: 'answer-page',
        secret: 'answer-page-secret-for-the-tests-only',
        name: 'Answer page',
        redirectURIs: [`${origin}/answers/callback`],
      },
      // The protected resources as clients of their own, named by their canonical URIs, trusting
      // the clients that may get tokens for them; their secrets are never used.
      { id: resource, secret: 'unused-random-secret-1', name: 'MCP server', trustedPeers: [desk.id] },
      { id: answersResource, secret: 'unused-random-secret-2', name: 'Answer API', trustedPeers: [bot.id] },
      desk,
      bot,
    ],
  });
  service = await startTestService(
    {
      PORT: String(port),
      AUTH_MODE: 'oauth',
      MCP_RESOURCE_URL: resource,
      OAUTH_ISSUERS: dex.issuer,
      OAUTH_TOKEN_TYPES: 'none',
      // What an MCP client that reads the resource metadata asks Dex for: the audience scope.
      OAUTH_SCOPES_SUPPORTED: `openid,audience:server:client_id:${resource}`,
      OAUTH_REQUEST_TIMEOUT_MS: '3000',
      ANSWER_OIDC_ISSUER: dex.issuer,
      ANSWER_OIDC_CLIENT_ID: 'answer-page',
      ANSWER_OIDC_CLIENT_SECRET: 'answer-page-secret-for-the-tests-only',
      ANSWER_PUBLIC_URL: origin,
      ANSWER_OIDC_SCOPES: 'openid,profile,email,groups',
      QUESTION_HOLD_MS: '4000',
    },
    { handlers },
  );
}, 120_000);
afterAll(async () => {
  await service?.close();
  await dex?.stop();
});

/** Alice's access token for /mcp from Dex: the password grant, asking for MCP_RESOURCE_URL as audience. */
async function aliceToken(audience: string | null = resource): Promise<string> {
  const tokens = await dex!.token(desk, {
    grant_type: 'password',
    username: USERS.alice.email,
    password: 'password',
    scope: `openid profile email groups${audience ? ` audience:server:client_id:${audience}` : ''}`,
  });
  return tokens.access_token!;
}

async function mcpClient(token: string): Promise<Client> {
  const client = new Client(
    { name: 'desk', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
const headerOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;

/** An order number of this run's own (the database keeps other runs' questions). */
const orderNo = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** The id of the waiting question on `order`, as the question store has it. */
const questionOn = (order: string) =>
  until(`the question on ${order}`, async () => {
    const { rows } = await service!.pool.query<{ id: string }>(
      `SELECT id FROM questions WHERE message = $1 AND status = 'waiting'`,
      [`Refund ${order}?`],
    );
    return rows[0]?.id;
  });

describeWithDex('the service with Dex as its OpenID provider', () => {
  it('takes Dex’s tokens as they are: no typ, the resource in aud by cross-client trust, an encoded sub', async () => {
    const token = await aliceToken();
    expect(headerOf(token)).not.toHaveProperty('typ');
    expect(claimsOf(token)).toMatchObject({
      iss: dex!.issuer,
      sub: dexSubject(USERS.alice.userID),
      aud: [resource, desk.id],
      azp: desk.id,
    });
    expect(claimsOf(token)).not.toHaveProperty('scope');
    const client = await mcpClient(token);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'refund_finance',
      'refund_bot',
      'await_answer',
    ]);
    await client.close();
  });

  it('has a group-addressed question answered at the page by a member signed in through Dex, and the caller gets the result', async () => {
    const order = orderNo('D');
    const alice = await mcpClient(await aliceToken());
    const call = alice.callTool(
      { name: 'refund_finance', arguments: { order } },
      { resetTimeoutOnProgress: true, timeout: 90_000 },
    );
    const id = await questionOn(order);

    // Nora signs in through Dex and brings no groups: the page says so, not only "not addressed to you".
    const nora = await signedInThroughDex(origin, USERS.nora.email);
    const noraPage = await questionPage(nora, origin, id);
    expect(noraPage.status).toBe(403);
    const noraText = await noraPage.text();
    expect(noraText).toContain('Your sign-in brought no groups');
    expect(noraText).not.toContain(order);

    // Alice at the page is the caller of her /mcp token (the same Dex subject): excluded.
    const aliceAtPage = await signedInThroughDex(origin, USERS.alice.email);
    const alicePage = await (await questionPage(aliceAtPage, origin, id)).text();
    expect(alicePage).toContain('You made this call, and this question must be answered by someone else');
    expect(alicePage).not.toContain(`action="/answers/q/${id}"`);

    // Fiona, in finance at Dex, finds it in her inbox and answers it.
    const fiona = await signedInThroughDex(origin, USERS.fiona.email);
    const inbox = await (await fiona.request(`${origin}/answers`)).text();
    expect(inbox).toContain(`href="/answers/q/${id}"`);
    expect(inbox).toContain('Fiona Finance');
    const answered = await answerOnPage(fiona, origin, id, { action: 'accept', 'content.note': 'ok' });
    expect(answered.status).toBe(303);

    expect(textOf(await call)).toBe(`accept for ${order} by ${dexSubject(USERS.fiona.userID)} via page (ok)`);
    await alice.close();
  });

  it('has a question addressed to a bot answered through the answer API with Dex’s client-credentials token', async () => {
    const order = orderNo('B');
    const alice = await mcpClient(await aliceToken());
    const call = alice.callTool({ name: 'refund_bot', arguments: { order } }, { timeout: 90_000 });
    const id = await questionOn(order);

    const { access_token: botToken } = await dex!.token(bot, {
      grant_type: 'client_credentials',
      scope: `groups audience:server:client_id:${answersResource}`,
    });
    // Dex names the bot in `azp` and encodes it as the subject, with no connector.
    expect(claimsOf(botToken!)).toMatchObject({ sub: dexSubject(bot.id, ''), azp: bot.id, groups: ['finance'] });
    const api = `${origin}/answers/api/questions`;
    const headers = { authorization: `Bearer ${botToken}`, 'content-type': 'application/json' };
    // Taken for a service's token (not a person's, which would be refused here as a client's).
    const listing = await fetch(api, { headers });
    expect(listing.status).toBe(200);
    const listed = (await listing.json()) as { questions: Array<{ id: string; shownDigest: string }> };
    const question = listed.questions.find((q) => q.id === id)!;
    expect(question).toBeDefined();

    // Alice's token is for /mcp, a client's acting for her: it answers nothing at the answer API.
    const refused = await fetch(`${api}/${id}`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${await aliceToken()}` },
      body: JSON.stringify({ action: 'accept', content: {}, shownDigest: question.shownDigest }),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('client-token');

    const answer = await fetch(`${api}/${id}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'accept', content: { note: 'bot ok' }, shownDigest: question.shownDigest }),
    });
    expect(answer.status).toBe(200);
    expect(textOf(await call)).toBe(`accept for ${order} by ${dexSubject(bot.id, '')} via api (bot ok)`);
    const { rows } = await service!.pool.query<{ answerer_id: string }>(
      `SELECT answerer_id FROM question_answers WHERE question_id = $1 AND taken`,
      [id],
    );
    expect(rows).toEqual([{ answerer_id: `${dex!.issuer}|client:${bot.id}` }]);
    await alice.close();
  });

  it('lets the official client do its own OAuth with Dex: the resource metadata’s scopes ask Dex for the audience', async () => {
    const oauth = new DeskOAuth(desk);
    const newClient = () =>
      new Client(
        { name: 'desk', version: '1.0.0' },
        { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
    const transport = new StreamableHTTPClientTransport(new URL(resource), { authProvider: oauth });
    const unauthorized = await (async () => {
      const client = newClient();
      await client.connect(transport);
      await client.listTools();
    })().catch((error: unknown) => error);
    expect(unauthorized).toBeInstanceOf(UnauthorizedError);

    // It found Dex through the protected resource metadata and asks for the scopes it advertises.
    const authorization = oauth.authorizationUrl!;
    expect(authorization.href.startsWith(`${dex!.issuer}/auth?`)).toBe(true);
    expect(authorization.searchParams.get('scope')).toBe(`openid audience:server:client_id:${resource}`);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    const callback = new URL(await loginAtDex(new Browser(), authorization.href, USERS.alice.email, DESK_ORIGIN));
    await transport.finishAuth(callback.searchParams.get('code')!);
    const token = (await oauth.tokens())!.access_token;
    expect(claimsOf(token)).toMatchObject({ sub: dexSubject(USERS.alice.userID), aud: [resource, desk.id] });

    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: oauth }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'refund_finance',
      'refund_bot',
      'await_answer',
    ]);
    await client.close();
  });

  it('refuses a Dex token whose audience is only the client it was issued to', async () => {
    const token = await aliceToken(null);
    expect(claimsOf(token).aud).toBe(desk.id);
    const response = await fetch(resource, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('invalid_token');
  });
});
