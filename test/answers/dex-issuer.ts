/**
 * A real Dex (https://dexidp.io), built from source, as the deployment's OpenID provider in the
 * tests: in-memory storage, its password database as the one connector (so its login form comes
 * at once, no connector to pick), no approval screen, and the grants a deployment uses (the
 * authorization code flow for the answer page, the password grant for an MCP client's token
 * without a browser, client credentials for a bot). Its config is the one docs/providers/dex.md
 * describes, written to a temporary folder.
 *
 * The binary is `DEX_BIN`, else /work/dex-bin/dex; `dexBinary()` is undefined when neither exists
 * (the test using it skips, saying how to build it: `DEX_BUILD_HINT`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { playLogin, type Browser } from './browser';
import { signedInAt } from './page-answerer';

export const DEX_BUILD_HINT =
  'git clone https://github.com/dexidp/dex && cd dex && go build -o /work/dex-bin/dex ./cmd/dex (or set DEX_BIN)';

export function dexBinary(): string | undefined {
  const candidate = process.env.DEX_BIN ?? '/work/dex-bin/dex';
  return existsSync(candidate) ? candidate : undefined;
}

/** bcrypt of "password" (Dex's own example hash): every static user's password here. */
const PASSWORD_HASH = '$2a$10$2b2cU8CPhOTaGrs1HRQuAueS7JTT5ZHsHSzYiFPm1leZck7Mc8T4W';
export const DEX_PASSWORD = 'password';

export interface DexUser {
  email: string;
  name: string;
  userID: string;
  groups?: string[];
}

export interface DexClient {
  id: string;
  secret: string;
  name?: string;
  redirectURIs?: string[];
  /** Clients that may ask for a token with this client as its audience (`audience:server:client_id:<id>`). */
  trustedPeers?: string[];
  /** The groups its client-credentials tokens carry, when it asks for the `groups` scope. */
  clientCredentialsClaims?: { groups: string[] };
}

export interface Dex {
  issuer: string;
  /** `{ access_token, id_token, ... }` from the token endpoint, or throws with Dex's answer. */
  token(client: DexClient, form: Record<string, string>): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/**
 * Dex's subject for a user of a connector: the unpadded base64url of the protobuf
 * `{ 1: userID, 2: connectorID }` (Dex's `internal.IDTokenSubject`), what its tokens and sign-ins
 * name a person by.
 */
export function dexSubject(userID: string, connectorID = 'local'): string {
  const field = (tag: number, value: string) => {
    const bytes = Buffer.from(value);
    if (bytes.length > 127) throw new Error('a longer field needs a longer varint');
    return Buffer.concat([Buffer.from([tag, bytes.length]), bytes]);
  };
  return Buffer.concat([field(0x0a, userID), ...(connectorID ? [field(0x12, connectorID)] : [])]).toString('base64url');
}

export async function startDex(binary: string, setup: { clients: DexClient[]; users: DexUser[] }): Promise<Dex> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}/dex`;
  const dir = mkdtempSync(path.join(tmpdir(), 'dex-'));
  const config = {
    issuer,
    storage: { type: 'memory' },
    web: { http: `127.0.0.1:${port}` },
    logger: { level: 'warn' },
    oauth2: {
      skipApprovalScreen: true,
      passwordConnector: 'local',
      // client_credentials is opt-in at Dex; the others are its defaults (password: passwordConnector).
      grantTypes: ['authorization_code', 'refresh_token', 'password', 'client_credentials'],
    },
    enablePasswordDB: true,
    staticClients: setup.clients,
    staticPasswords: setup.users.map((user) => ({
      email: user.email,
      hash: PASSWORD_HASH,
      username: user.email.split('@')[0],
      name: user.name,
      userID: user.userID,
      ...(user.groups ? { groups: user.groups } : {}),
    })),
  };
  // JSON is YAML: Dex reads it as its config file.
  const file = path.join(dir, 'dex.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  const child: ChildProcess = spawn(binary, ['serve', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`Dex exited (${child.exitCode}) before it served its discovery document:\n${output}`);
    }
    const up = await fetch(`${issuer}/.well-known/openid-configuration`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Dex did not serve its discovery document within 20 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    issuer,
    async token(client, form) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(form),
      });
      const body = (await response.json()) as Record<string, string>;
      if (!response.ok) throw new Error(`Dex's token endpoint answered ${response.status}: ${JSON.stringify(body)}`);
      return body;
    },
    stop,
  };
}

/**
 * Plays a person at Dex from an authorization URL: redirect by redirect to its password form
 * (`login`, `password`), posts it, and follows on until Dex sends the browser back to
 * `appOrigin`. Returns that callback URL, not yet followed.
 */
export const loginAtDex = (browser: Browser, authorizationUrl: string, email: string, appOrigin: string) =>
  playLogin(browser, authorizationUrl, appOrigin, (page, url) => {
    const form = /<form method="post" action="([^"]+)"/.exec(page);
    if (!form || !page.includes('name="password"')) throw new Error(`not Dex's login form: ${page.slice(0, 300)}`);
    return {
      action: new URL(form[1]!.replace(/&amp;/g, '&'), url).href,
      fields: { login: email, password: DEX_PASSWORD },
    };
  });

/** A browser signed in at the answer page of `origin` through Dex as `email`. */
export const signedInThroughDex = (origin: string, email: string): Promise<Browser> =>
  signedInAt(origin, email, loginAtDex);
