/**
 * Every Temporal connection the service makes, built in one place: the API's client connection,
 * the worker's native connection and the test harness's client all take their options from
 * `temporalConnectionOptions`, so TLS, mutual TLS, the API key and extra metadata
 * (lib/temporal/security-config.ts) reach each of them the same way.
 *
 * Connecting is bounded: a server that does not answer, refuses the handshake or the credentials
 * fails the start within `TEMPORAL_CONNECT_TIMEOUT_MS` with one line that says what went wrong and
 * which variable to check. When TLS is on and the SDK's own error says little, the handshake is
 * tried again here with node:tls, whose errors name the cause (the server refused the client
 * certificate, its certificate is not signed by a trusted CA, not valid for the name:
 * lib/temporal/tls-diagnosis.ts); the one-line failures are lib/temporal/connect-failure.ts.
 */
import { Connection } from '@temporalio/client';
import type { TLSConfig } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { describeConnectFailure, TemporalConnectError } from './connect-failure';
import type { TemporalTarget } from '../config/temporal-security';
import { diagnoseTls } from './tls-diagnosis';

export { describeConnectFailure, startFailure, TemporalConnectError } from './connect-failure';
export { diagnoseTls, type TlsDiagnosis } from './tls-diagnosis';

/** How long a start-up connection may take before the start fails. */
export const TEMPORAL_CONNECT_TIMEOUT_MS = 10_000;

/** What both the client's `Connection.connect` and the worker's `NativeConnection.connect` take. */
export interface TemporalConnectionOptions {
  address: string;
  /** `false`: plaintext (set explicitly: the SDK turns TLS on by itself when an API key is given). */
  tls: TLSConfig | false;
  apiKey?: string;
  metadata?: Record<string, string>;
}

export function temporalConnectionOptions(temporal: TemporalTarget): TemporalConnectionOptions {
  const { tls: settings, apiKey, metadata } = temporal.security;
  const tlsOption: TLSConfig | false = settings
    ? {
        ...(settings.serverName !== undefined ? { serverNameOverride: settings.serverName } : {}),
        ...(settings.serverRootCa ? { serverRootCACertificate: settings.serverRootCa.pem } : {}),
        ...(settings.clientCert
          ? { clientCertPair: { crt: settings.clientCert.crt, key: settings.clientCert.key } }
          : {}),
      }
    : false;
  return {
    address: temporal.address,
    tls: tlsOption,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata: { ...metadata } } : {}),
  };
}
/** The client connection (API, admin, readiness, tests): connected and checked before it is returned. */
export async function connectTemporalClient(
  temporal: TemporalTarget,
  timeoutMs = TEMPORAL_CONNECT_TIMEOUT_MS,
): Promise<Connection> {
  // The SDK's client retries a refused handshake until its deadline and then says only that: a
  // handshake tried first says why at once.
  if (temporal.security.tls) {
    const refused = await diagnoseTls(temporal.address, temporal.security).catch(() => undefined);
    if (refused?.definite) throw new TemporalConnectError(`Temporal at ${temporal.address} ${refused.text}`);
  }
  return bounded(temporal, timeoutMs, () =>
    Connection.connect({ ...temporalConnectionOptions(temporal), connectTimeout: timeoutMs }),
  );
}

/** The worker's native connection. */
export async function connectTemporalNative(
  temporal: TemporalTarget,
  timeoutMs = TEMPORAL_CONNECT_TIMEOUT_MS,
): Promise<NativeConnection> {
  return bounded(temporal, timeoutMs, () => NativeConnection.connect(temporalConnectionOptions(temporal)));
}

async function bounded<C extends { close(): Promise<void> }>(
  temporal: TemporalTarget,
  timeoutMs: number,
  connect: () => Promise<C>,
): Promise<C> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const attempt = connect();
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([attempt, deadline]);
  } catch (error) {
    // A connection that completes after the deadline is closed, not left open.
    if (timedOut) void attempt.then((connection) => connection.close()).catch(() => undefined);
    throw await describeConnectFailure(temporal, error);
  } finally {
    clearTimeout(timer);
  }
}
