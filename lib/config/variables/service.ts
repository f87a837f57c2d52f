/**
 * The variables of the process itself, its HTTP listener, and what operators reach it by (the admin
 * API, the codec endpoint, metrics). Each is declared once, with what docs/configuration.md says of it.
 */
import { z } from 'zod';
import { documented } from './documented';
import { boolean, hostNames, integer, origins, secretToken, unsetWhenEmpty } from './value-kinds';
import { trustProxy } from './trust-proxy';

/** The process */
export const PROCESS_VARIABLES = {
  NODE_ENV: documented(
    z.string().default('production'),
    "the process's environment name, as Node libraries read it; `production` unless set",
  ),
  LOG_LEVEL: documented(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    "pino's level for both processes' JSON log lines: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`",
  ),
};

/** HTTP */
export const HTTP_VARIABLES = {
  HOST: documented(
    z.string().min(1).default('127.0.0.1'),
    "the API's listen address (`/mcp`, `/healthz`, `/readyz`, `/metrics`, `/admin`); one that is not loopback needs `AUTH_MODE=oauth` or `ALLOW_UNAUTHENTICATED=true`",
  ),
  PORT: documented(integer(0, 65535).default(3000), "the API's listen port"),
  HTTP_WAIT_MS: documented(
    integer(1).default(50_000),
    'how long a leg waits for a round\'s outcome before a state-only "come back" result (under the official clients\' 60 s request timeout by default, so a client comes back as seldom as it can); also how often legacy streams and tasks check Temporal for an ending it did not record, and how long a legacy `tasks/cancel` waits for the cancel to be recorded',
  ),
  QUESTION_HOLD_MS: documented(
    integer(1).default(50_000),
    'how long a 2026-07-28 leg without a task waits on a question addressed to someone else before a state-only "come back" result (under the official client\'s 60 s request timeout by default); see [What the caller sees](protocol.md#questions-addressed-to-someone-else)',
  ),
  QUESTION_PROGRESS_EVERY_MS: documented(
    integer(1_000).default(15_000),
    "while a leg waits on someone else's answer, how often a leg that sent a progress token is told so (`notifications/progress` naming who it waits for)",
  ),
  PENDING_RESULT_AT_LEG: documented(
    integer(2, 1000).default(10),
    "which result of a 2026-07-28 client's retry loop is sent as a complete one when the call still waits: the pending result (or the tool's error, `longWait`); the official TypeScript and Python clients throw after their 10th retry, the Go SDK after its 10th result and its 3rd state-only one (counted for it); see [Waits longer than a client's patience](protocol.md#waits-longer-than-a-clients-patience)",
  ),
  LEGACY_PENDING_AFTER_MS: documented(
    integer(0).default(50_000),
    "how long a handshake-era (2025-11-25 and older) `tools/call` on Streamable HTTP waits before it is answered with the pending result while its exchange still runs (0: never; the call then waits as long as its client does); under the TypeScript clients' 60 s request timeout; see [Waits longer than a client's patience](protocol.md#waits-longer-than-a-clients-patience)",
  ),
  REATTACH_IDENTICAL_CALLS_MS: documented(
    integer(0).default(86_400_000),
    "how long after an exchange started an identical call of its caller (same tool and arguments, no idempotency key) joins it while it runs instead of starting another (0: never); per tool `identicalCalls: 'separate'` turns it off",
  ),
  MAX_BODY_BYTES: documented(integer(1024).default(1048576), 'the largest HTTP body; past it HTTP 413, `-32600`'),
  ALLOWED_ORIGINS: documented(origins(), 'browser origins allowed besides loopback', '(none)'),
  ALLOWED_HOSTS: documented(
    hostNames(),
    "host names clients reach the API by (every route: `/mcp`, `/metrics`, `/admin`, `/codec`, `/answers`, the probes), besides `localhost`, `HOST` itself, `MCP_RESOURCE_URL`'s and `ANSWER_PUBLIC_URL`'s hosts and `ALLOWED_ORIGINS`' hosts: on every listener, a `Host` naming none of them (a DNS name rebound to this server) gets 403, `Forbidden host`. An IP address always passes (no rebound page carries one, and probes name a pod by it)",
    '(none)',
  ),
  TRUST_PROXY: documented(
    trustProxy(),
    "the proxies in front of the API (a TLS-terminating load balancer): their addresses or networks, comma-separated (`10.0.0.0/8`, `fd00::/8`, or the ranges `loopback`, `linklocal`, `uniquelocal`), or how many hops of them there are (`1`); Express's `trust proxy`. From those hops only, `X-Forwarded-For` gives the client's address (what `ADMIN_TOKEN_MAX_FAILURES` counts per) and `X-Forwarded-Proto` whether it came over https (the codec sign-in cookie is then `Secure`). `true` is refused, as is a network of every address (`0.0.0.0/0`, `::/0`): every client could then claim any address",
    '(none: no forwarded header is believed)',
  ),
  READY_CHECK_TIMEOUT_MS: documented(
    integer(100, 60_000).default(2000),
    'how long each check of `GET /readyz` may take before it counts as failed',
  ),
  API_DRAIN_GRACE_MS: documented(
    integer(0, 600_000).default(10_000),
    "how long a stopping API (`SIGTERM`) lets requests in progress and the streams of clients that cannot resume elsewhere end by themselves ([Stopping](deploying.md#stopping-a-replica)); compose's `stop_grace_period` (30 s) must stay above it, which `npm test` checks",
  ),
};

/** Operating: the admin API, the codec endpoint, metrics */
export const OPERATING_VARIABLES = {
  ADMIN_TOKEN: documented(
    secretToken(),
    'the bearer token of the [admin API](operators.md#admin-api-and-durable-mcp-exchanges) (`/admin`) and of the [codec endpoint](security.md#the-codec-endpoint-codec) (`/codec`); at least 32 printable characters (`openssl rand -hex 32`); unset or empty, every `/admin` and `/codec` route answers 404, and the API logs which at start',
    '(none: the admin API is off; `npm run dev` makes a development one)',
  ),
  ADMIN_TOKEN_MAX_FAILURES: documented(
    integer(1, 10_000).default(10),
    "wrong tokens one client address may send at `/admin`, `/codec/sign-in`, `/codec/decode` and `/codec/encode` within `ADMIN_TOKEN_FAILURE_WINDOW_MS` of its first; past it that address gets **429** with `Retry-After` on those routes until the window ends, whatever it sends (the right token included). A request without a token, or with an expired or revoked sign-in cookie, is no guess. In memory, per API process; behind a proxy set `TRUST_PROXY`, or the proxy's address stands for all its clients",
  ),
  ADMIN_TOKEN_FAILURE_WINDOW_MS: documented(
    integer(1_000, 86_400_000).default(300_000),
    'the window `ADMIN_TOKEN_MAX_FAILURES` counts in, from the first wrong token: how long a client address that used it up is refused',
  ),
  TEMPORAL_UI_URL: documented(
    unsetWhenEmpty(
      z
        .string()
        .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')
        .transform((url) => url.replace(/\/+$/, '')),
    ),
    "the Temporal Web UI's base URL as the browser reaches it, for the admin view's link to each exchange's workflow (`<url>/namespaces/<ns>/workflows/exchange-<id>`); its origin may call the codec endpoint",
    "(none; `npm run dev` uses its dev server's UI)",
  ),
  CODEC_ALLOWED_ORIGINS: documented(
    origins(),
    "browser origins the [codec endpoint](security.md#the-codec-endpoint-codec) answers besides `TEMPORAL_UI_URL`'s (comma-separated, exact: scheme, host and port)",
  ),
  CODEC_MAX_BODY_BYTES: documented(
    integer(1024, 67_108_864).default(4_194_304),
    'the largest body of one `/codec/decode` or `/codec/encode` request (413 past it)',
  ),
  CODEC_ENCODE_TOKEN: documented(
    secretToken(),
    'the bearer token of `POST /codec/encode` alone (32+ printable characters, not the admin token): encoding mints payloads the workers accept',
    '(none: `/codec/encode` off)',
  ),
  CODEC_TRUST_LOOPBACK: documented(
    boolean('false'),
    "`true` lets `POST /codec/decode` (and an empty `/codec/encode`) through without a credential for a connection from this machine's loopback address, so a development stack's Temporal Web UI decodes with no sign-in and no codec settings. For local development only (`npm run dev` and `durable-mcp dev` set it while `HOST` is loopback): refused at start unless `HOST` is a loopback address, `TRUST_PROXY` is unset and `NODE_ENV` is not `production`, since every process and browser tab on the machine can then read what Temporal holds. Encoding still takes `CODEC_ENCODE_TOKEN` alone",
  ),
  CODEC_SESSION_TTL_MS: documented(
    integer(60_000, 604_800_000).default(3_600_000),
    'how long a browser signed in at `/codec/sign-in` stays signed in: an hour by default, so a sign-in cookie that leaves the browser is of use no longer',
  ),
  CODEC_SESSION_EPOCH: documented(
    unsetWhenEmpty(
      z
        .string()
        .max(64)
        .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
    ),
    'any text (up to 64 printable characters) the sign-in cookies are signed under beside `ADMIN_TOKEN`: change it on every replica to revoke every sign-in issued, without changing the admin token',
  ),
  METRICS_TOKEN: documented(
    secretToken(),
    "the bearer token `GET /metrics` of the API and of the worker asks for (32+ characters; a Prometheus scrape config's `authorization: { credentials: ... }`); without it, 401",
    '(none: public)',
  ),
  WORKER_METRICS_HOST: documented(
    z.string().min(1).default('127.0.0.1'),
    "where the worker serves `GET /metrics` (its own and the Temporal SDK's); in a container `0.0.0.0`",
  ),
  WORKER_METRICS_PORT: documented(
    integer(0, 65535).default(9464),
    "the worker's metrics port; `0` turns it off; a port already taken is logged and the worker runs without it",
  ),
};
