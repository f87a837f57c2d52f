/**
 * What the sign-in tests run: a real OpenID provider (oidc-issuer-child.mjs) on a loopback port,
 * and bare express apps with the answer sign-in mounted at `/answers`, one per registered client,
 * beside routes that show what the page would ask of a request (`/answers/whoami`, GET or POST:
 * the answerer and the CSRF token; `POST /answers/act`: the CSRF check).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import pino from 'pino';
import { spawnChild, type Child } from '../../cli/dev/child-processes';
import { freePort } from '../../cli/dev/local-stack/free-port';
import type { AnswerSignInConfig } from '../../lib/auth/answer-sign-in-config';
import { projectRoot } from '../../lib/paths';
import { createAnswerSignIn, type AnswerSignIn } from '../../services/api/src/answers/sign-in/answer-sign-in';
import { newSigningKey } from '../support/authorization-server';

export interface TestApp {
  /** ANSWER_PUBLIC_URL. */
  origin: string;
  /** Where the app listens: its origin, unless that is a public one before a proxy. */
  address: string;
  signIn: AnswerSignIn;
  config: AnswerSignInConfig;
  server: Server;
  /** The sign-in's log lines, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The app as it is after a restart of every replica with ANSWER_SESSION_EPOCH set to `epoch`. */
  restartWithEpoch(epoch: string): void;
}

export interface AppSpec {
  clientId: string;
  /** Absent: a public client (`token_endpoint_auth_method: none`). */
  clientSecret?: string;
  sessionTtlMs: number;
  /** ANSWER_SESSION_REFRESH_MS; the TTL when absent. */
  sessionRefreshMs?: number;
  /** ANSWER_PUBLIC_URL when it is not the app's own address (an https origin before a proxy). */
  publicOrigin?: string;
  /** ANSWER_SESSION_EPOCH; '' when absent. */
  epoch?: string;
}

/** ANSWER_SESSION_KEYS of every app: the same keys, as deployments that share a ring have. */
export const KEYS = [{ kid: 't1', key: randomBytes(32) }];

async function startApp(issuer: string, spec: AppSpec): Promise<TestApp> {
  const app = express();
  // Built once the app listens: its config needs the app's origin.
  const mounted: { signIn?: AnswerSignIn } = {};
  app.use('/answers', (req, res, next) => mounted.signIn!.router(req, res, next));
  const whoami = (req: express.Request, res: express.Response) =>
    res.json({ answerer: mounted.signIn!.answererOf(req) ?? null, csrf: mounted.signIn!.csrfTokenFor(req) ?? null });
  // A GET as the page's pages are (a session due for refresh is sent to the issuer first), a POST as its forms.
  app.get('/answers/whoami', whoami);
  app.post('/answers/whoami', whoami);
  app.post('/answers/act', express.urlencoded({ extended: false }), (req, res) => {
    res.status(mounted.signIn!.checkCsrf(req, (req.body as Record<string, unknown>).csrf) ? 200 : 403).end();
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const origin = spec.publicOrigin ?? address;
  const config: AnswerSignInConfig = {
    issuer,
    clientId: spec.clientId,
    ...(spec.clientSecret !== undefined ? { clientSecret: spec.clientSecret } : {}),
    publicOrigin: origin,
    redirectUri: `${origin}/answers/callback`,
    scopes: ['openid', 'profile', 'email'],
    groupsClaim: 'groups',
    sessionTtlMs: spec.sessionTtlMs,
    sessionRefreshMs: spec.sessionRefreshMs ?? spec.sessionTtlMs,
    requestTimeoutMs: 5_000,
    clockToleranceS: 5,
  };
  const logs: Array<Record<string, unknown>> = [];
  const log = pino(
    { level: 'info' },
    { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const build = (epoch: string) => (mounted.signIn = createAnswerSignIn(config, { keys: KEYS, epoch, log }));
  const signIn = build(spec.epoch ?? '');
  return {
    origin,
    address,
    signIn,
    config,
    server,
    logs,
    restartWithEpoch: (epoch) => void build(epoch),
  };
}

function nodeBinary(): string {
  const local = path.join(projectRoot(), 'node_modules', '.bin', 'node');
  return existsSync(local) ? local : process.execPath;
}

export interface SignInStack {
  issuer: string;
  apps: TestApp[];
  stop(): Promise<void>;
}

/** A client the issuer knows, as the service's ANSWER_OIDC_* variables name it. */
export type IssuerClient = Pick<AnswerSignInConfig, 'clientId' | 'clientSecret' | 'redirectUri'>;

export interface AnswerIssuer {
  issuer: string;
  stop(): Promise<void>;
}

export interface AnswerIssuerOptions {
  /**
   * The ID token says how the person signed in (`auth_time`, `acr`, `amr`), a login with an `otp`
   * field being multi-factor, and the provider steps up on `acr_values` (oidc-issuer-child.mjs).
   */
  authentication?: boolean;
}

/** The acr values the provider gives with `authentication`: a password alone, and with a one-time code. */
export const PASSWORD_ACR = 'urn:durable-mcp:test:password';
export const MFA_ACR = 'urn:durable-mcp:test:mfa';

/**
 * The real OpenID provider (oidc-issuer-child.mjs) on a loopback port, with `clients` registered
 * for the authorization code flow and `accounts`' claims (any login is accepted, and becomes `sub`).
 */
export async function startAnswerIssuer(
  clients: IssuerClient[],
  accounts: Record<string, Record<string, unknown>>,
  port?: number,
  options: AnswerIssuerOptions = {},
): Promise<AnswerIssuer> {
  const issuerPort = port ?? (await freePort());
  const registered = clients.map((client) => ({
    client_id: client.clientId,
    ...(client.clientSecret !== undefined
      ? { client_secret: client.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
      : { token_endpoint_auth_method: 'none' }),
    redirect_uris: [client.redirectUri],
    grant_types: ['authorization_code'],
    response_types: ['code'],
  }));
  const ISSUER_CONFIG = JSON.stringify({
    port: issuerPort,
    keys: [await newSigningKey('s1')],
    clients: registered,
    accounts,
    ...(options.authentication ? { authentication: true } : {}),
  });
  const child: Child = spawnChild('answer-issuer', nodeBinary(), [path.join(__dirname, 'oidc-issuer-child.mjs')], {
    cwd: projectRoot(),
    env: { ...process.env, ISSUER_CONFIG, NODE_ENV: 'test' },
    keepOutput: true,
  });
  await child.waitForOutput(/^\{"issuer".*\}$/m, 20_000);
  return { issuer: `http://127.0.0.1:${issuerPort}`, stop: () => child.stop(5_000) };
}

/** The provider with one registered client per `specs` entry, and an app for each. */
export async function startSignInStack(
  specs: AppSpec[],
  accounts: Record<string, Record<string, unknown>>,
): Promise<SignInStack> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const apps = await Promise.all(specs.map((spec) => startApp(issuer, spec)));
  const provider = await startAnswerIssuer(
    apps.map(({ config }) => config),
    accounts,
    port,
  );
  return {
    issuer,
    apps,
    async stop() {
      await provider.stop();
      await Promise.all(apps.map((app) => new Promise((resolve) => app.server.close(resolve))));
    },
  };
}
