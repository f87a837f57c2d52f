/**
 * The tests' authorization server: oidc-provider (a real, certified OpenID provider) started as a
 * child process (oidc-provider-child.mjs) on a loopback port, with RS256 keys this harness makes
 * with jose. It issues real tokens by the client-credentials grant; the harness asks for them over
 * HTTP like any client, and keeps the private keys so a test can also forge what no real server
 * would issue (a token signed by a stranger's key under the server's key id, say). `restart` brings
 * it back on the same issuer with other keys: a key rotation as the resource server sees it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { spawnChild, type Child } from '../../cli/dev/child-processes';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { projectRoot } from '../../lib/paths';

export interface TestClient {
  client_id: string;
  client_secret: string;
  /** The scopes it may be granted; absent, it may not use the client-credentials grant (a resource server's own client). */
  scope?: string;
}

export interface AuthorizationServerOptions {
  clients: TestClient[];
  /** Resource URI → the scopes a token for it may carry (space-separated). */
  resources: Record<string, string>;
  /** Clients whose tokens are opaque (introspected), not JWTs. */
  opaqueClients?: string[];
  /** Clients whose tokens live one second. */
  shortLivedClients?: string[];
  /**
   * People signed in by the authorization code flow (the answer page's sign-in) at the same issuer:
   * the clients registered for it (OpenID client metadata) and the accounts' claims by login.
   */
  codeFlow?: { clients: Array<Record<string, unknown>>; accounts: Record<string, Record<string, unknown>> };
}

/** A signing key: the private JWK the server signs with (its `kid`, `alg` RS256). */
export type SigningKey = JWK & { kid: string };

export interface AuthorizationServer {
  issuer: string;
  tokenEndpoint: string;
  /** The keys it signs with now, first the one it uses. */
  keys: SigningKey[];
  /** Its process id (its latest start). */
  readonly pid: number;
  /** A token by the client-credentials grant; throws with the server's answer when it refuses. */
  token(client: TestClient, request?: { resource?: string; scope?: string }): Promise<string>;
  /** Stops it and starts it again on the same issuer, signing with `keys`. */
  restart(keys: SigningKey[]): Promise<void>;
  stop(): Promise<void>;
}

/** A new RS256 signing key with its own key id. */
export async function newSigningKey(kid: string): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

/** The Node the project runs its tools on (the `node` dev dependency, 22.x), which oidc-provider wants. */
function nodeBinary(): string {
  const local = path.join(projectRoot(), 'node_modules', '.bin', 'node');
  return existsSync(local) ? local : process.execPath;
}

export async function startAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const port = await freePort();
  let keys = [await newSigningKey('k1')];
  let child: Child | undefined;
  let issuer = '';

  async function start(): Promise<void> {
    const AS_CONFIG = JSON.stringify({ port, keys, ...options });
    child = spawnChild('authorization-server', nodeBinary(), [path.join(__dirname, 'oidc-provider-child.mjs')], {
      cwd: projectRoot(),
      env: { ...process.env, AS_CONFIG, NODE_ENV: 'test' },
      keepOutput: true,
    });
    issuer = JSON.parse((await child.waitForOutput(/^\{"issuer".*\}$/m, 20_000))[0]).issuer;
  }
  await start();

  return {
    issuer,
    tokenEndpoint: `${issuer}/token`,
    get keys() {
      return keys;
    },
    get pid() {
      return child!.pid;
    },
    async token(client, request = {}) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          ...(request.resource !== undefined ? { resource: request.resource } : {}),
          ...(request.scope !== undefined ? { scope: request.scope } : {}),
        }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || !body.access_token) throw new Error(`token refused: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async restart(next) {
      await child?.stop(5_000);
      keys = next;
      await start();
    },
    async stop() {
      await child?.stop(5_000);
    },
  };
}
