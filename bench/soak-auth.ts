/**
 * Who the soak's clients are: a real authorization server (the tests' oidc-provider, a process of
 * its own) issuing client-credentials tokens to a caller (`alice`, for /mcp) and an approver
 * (`dana`, a service holding `refunds:approve` for the answer API: what refund_order's question is
 * addressed to). A question can be answered through the answer API only under AUTH_MODE=oauth, so
 * the whole soak runs with it. Tokens live 300 s there; each is fetched again after 200 s.
 */
import { startAuthorizationServer, type TestClient } from '../test/support/authorization-server';
import { answerApiResourceOf } from '../lib/auth/auth-config';

/** The audience tokens carry: the service checks it, not the port each API process happens to listen on. */
const RESOURCE = 'http://127.0.0.1:3999/mcp';
const ANSWERS_RESOURCE = answerApiResourceOf(RESOURCE);
const ALICE: TestClient = { client_id: 'alice', client_secret: 'alice-secret', scope: 'mcp' };
const DANA: TestClient = { client_id: 'dana', client_secret: 'dana-secret', scope: 'mcp refunds:approve' };
const REFRESH_AFTER_MS = 200_000;

export interface SoakAuth {
  /** What the API processes need to check those tokens. */
  apiEnv: Record<string, string>;
  /** The caller's principal key: what its requestStates are bound to. */
  callerPrincipal: string;
  callerHeaders(): Promise<Record<string, string>>;
  approverHeaders(): Promise<Record<string, string>>;
  /** The authorization server's process, for its memory. */
  pid: number;
  stop(): Promise<void>;
}

export async function startSoakAuth(): Promise<SoakAuth> {
  const as = await startAuthorizationServer({
    clients: [ALICE, DANA],
    resources: { [RESOURCE]: 'mcp refunds:approve', [ANSWERS_RESOURCE]: 'refunds:approve' },
  });
  const cached = new Map<string, { token: Promise<string>; at: number }>();
  const bearer = (client: TestClient, resource: string, scope: string) => async () => {
    const key = `${client.client_id} ${resource}`;
    let entry = cached.get(key);
    if (!entry || Date.now() - entry.at > REFRESH_AFTER_MS) {
      entry = { token: as.token(client, { resource, scope }), at: Date.now() };
      cached.set(key, entry);
      entry.token.catch(() => cached.delete(key)); // a refused fetch is asked again next time
    }
    return { authorization: `Bearer ${await entry.token}` };
  };
  return {
    apiEnv: {
      AUTH_MODE: 'oauth',
      MCP_RESOURCE_URL: RESOURCE,
      OAUTH_ISSUERS: as.issuer,
      OAUTH_REQUIRED_SCOPES: 'mcp',
    },
    callerPrincipal: `${as.issuer}|${ALICE.client_id}`,
    callerHeaders: bearer(ALICE, RESOURCE, 'mcp'),
    approverHeaders: bearer(DANA, ANSWERS_RESOURCE, 'refunds:approve'),
    pid: as.pid,
    stop: () => as.stop(),
  };
}
