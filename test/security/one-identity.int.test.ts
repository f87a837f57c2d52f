/**
 * One person, one identity: the API refuses to start when the answer page would sign people in at
 * an issuer that is not, exactly, one of those whose tokens /mcp takes (a trailing slash, a second
 * provider), since the caller of a question that excludes them could then answer it signed in at
 * the page as a "stranger". One line, naming both variables and the way out (ANSWER_IDENTITY_CLAIM);
 * the code of a configuration error (78). The process is the real API's, as `durable-mcp start` runs it.
 */
import { apiProcessExit } from '../support/api-process-exit';
import { TEST_KEY_RINGS } from '../support/test-service';

const ISSUER = 'http://127.0.0.1:9/realms/mcp';
const deployment = (answerIssuer: string, extra: Record<string, string> = {}) => ({
  ...TEST_KEY_RINGS,
  AUTH_MODE: 'oauth',
  MCP_RESOURCE_URL: 'http://127.0.0.1:3999/mcp',
  OAUTH_ISSUERS: ISSUER,
  ANSWER_OIDC_ISSUER: answerIssuer,
  ANSWER_OIDC_CLIENT_ID: 'answer-page',
  ANSWER_PUBLIC_URL: 'http://127.0.0.1:3999',
  ...extra,
});

it.each([
  ['its issuer spelled with a trailing slash', `${ISSUER}/`],
  ['a second provider', 'http://127.0.0.1:9/realms/elsewhere'],
])(
  'refuses to start with the page signing people in at %s',
  async (_case, answerIssuer) => {
    const { code, stderr } = await apiProcessExit(deployment(answerIssuer));
    expect(code).toBe(78);
    const lines = stderr.trim().split('\n');
    expect(
      lines.some((line) =>
        line.includes(`ANSWER_OIDC_ISSUER (${answerIssuer}) is not one of OAUTH_ISSUERS (${ISSUER})`),
      ),
    ).toBe(true);
    expect(stderr).toContain('ANSWER_IDENTITY_CLAIM');
  },
  60_000,
);

it('goes past the check when a claim keys a person on both sides', async () => {
  // It then stops at the next thing it needs (here, a Postgres that is not there), not at the issuer.
  const { code, stderr } = await apiProcessExit(
    deployment('http://127.0.0.1:9/realms/elsewhere', {
      ANSWER_IDENTITY_CLAIM: 'oid',
      DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:9/mcp',
    }),
  );
  expect(stderr).not.toContain('is not one of OAUTH_ISSUERS');
  expect(code).not.toBe(0);
}, 60_000);
