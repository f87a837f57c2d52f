/**
 * Every Temporal connection the service makes, built in one place: the API's client connection,
 * the worker's native connection and the test harness's client all take their options from
 * `temporalConnectionOptions`, so TLS, mutual TLS, the API key and extra metadata
 * (lib/temporal-security-config.ts) reach each of them the same way.
 *
 * Connecting is bounded: a server that does not answer, refuses the handshake or the credentials
 * fails the start within `TEMPORAL_CONNECT_TIMEOUT_MS` with one line that says what went wrong and
 * which variable to check. When TLS is on and the SDK's own error says little, the handshake is
 * tried again here with node:tls, whose errors name the cause (the server refused the client
 * certificate, its certificate is not signed by a trusted CA, not valid for the name).
 */
import tls from 'node:tls';
import { Connection } from '@temporalio/client';
import type { TLSConfig } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { TemporalSecurityConfig } from './temporal-security-config';

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

export interface TemporalTarget {
  address: string;
  security: TemporalSecurityConfig;
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

/** A start-up connection that failed: `message` is one line, naming the address and what to check. */
export class TemporalConnectError extends Error {
  override readonly name = 'TemporalConnectError';
}

/** How a process main reports a failed start: one line for a connection it could not make, the stack otherwise. */
export function startFailure(error: unknown): string {
  if (error instanceof TemporalConnectError) return error.message;
  return (error as Error)?.stack ?? String(error);
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

/** gRPC status codes the credentials cause. */
const UNAUTHENTICATED = 16;
const PERMISSION_DENIED = 7;

function grpcCode(error: unknown): number | undefined {
  const direct = (error as { code?: unknown })?.code;
  if (typeof direct === 'number') return direct;
  const cause = (error as { cause?: { code?: unknown } })?.cause?.code;
  return typeof cause === 'number' ? cause : undefined;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The one-line reason a start-up connection failed, with what to check. */
export async function describeConnectFailure(temporal: TemporalTarget, error: unknown): Promise<TemporalConnectError> {
  const { address, security } = temporal;
  const sdkText = oneLine((error as Error)?.message ?? String(error));
  const code = grpcCode(error);
  if (code === UNAUTHENTICATED || code === PERMISSION_DENIED || /unauthenticated|permission denied/i.test(sdkText)) {
    const what = security.apiKey !== undefined ? 'TEMPORAL_API_KEY' : 'TEMPORAL_API_KEY or the client certificate';
    return new TemporalConnectError(
      `Temporal at ${address} refused the credentials (check ${what} and TEMPORAL_NAMESPACE): ${sdkText}`,
    );
  }
  if (security.tls) {
    const found = await diagnoseTls(address, security).catch(() => undefined);
    if (found) return new TemporalConnectError(`Temporal at ${address} ${found.text}`);
  } else if (/tls|handshake|ssl/i.test(sdkText)) {
    return new TemporalConnectError(
      `Temporal at ${address}: ${sdkText} (TLS is off: set TEMPORAL_TLS=true, or TEMPORAL_TLS_SERVER_CA_CERT_PATH for a private CA)`,
    );
  }
  const checks = security.tls
    ? 'TEMPORAL_ADDRESS, TEMPORAL_TLS_SERVER_CA_CERT_PATH, TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_SERVER_NAME'
    : 'TEMPORAL_ADDRESS, and TEMPORAL_TLS if the server wants TLS';
  return new TemporalConnectError(`Temporal at ${address} could not be reached: ${sdkText} (check ${checks})`);
}

/** HTTP/2's client preface and an empty SETTINGS frame: a server that took the client's certificate answers it. */
const H2_PREFACE = Buffer.concat([
  Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
  Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]),
]);

/** What is wrong with a TLS connection; `definite` when the handshake itself was refused (no retry cures it). */
export interface TlsDiagnosis {
  text: string;
  definite: boolean;
}

/**
 * Tries the TLS handshake with node:tls and says what is wrong with it, or undefined when it
 * succeeds (the cause lies elsewhere). Under TLS 1.3 a server refuses a client certificate after
 * the handshake, so the preface is sent and the answer awaited.
 */
export function diagnoseTls(
  address: string,
  security: TemporalSecurityConfig,
  timeoutMs = 3_000,
): Promise<TlsDiagnosis | undefined> {
  const settings = security.tls!;
  const { host, port } = splitAddress(address);
  const servername = settings.serverName ?? (isIp(host) ? undefined : host);
  return new Promise((resolve) => {
    const socket = tls.connect({
      host,
      port,
      ...(servername ? { servername } : {}),
      ALPNProtocols: ['h2'],
      ...(settings.serverRootCa ? { ca: settings.serverRootCa.pem } : {}),
      ...(settings.clientCert ? { cert: settings.clientCert.crt, key: settings.clientCert.key } : {}),
    });
    let handshaken = false;
    const done = (outcome: TlsDiagnosis | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(
      () =>
        done(
          handshaken
            ? undefined
            : {
                text: `did not complete a TLS handshake within ${timeoutMs} ms (check TEMPORAL_ADDRESS)`,
                definite: false,
              },
        ),
      timeoutMs,
    );
    socket.once('secureConnect', () => {
      handshaken = true;
      socket.write(H2_PREFACE);
    });
    socket.once('data', () => done(undefined));
    socket.once('end', () =>
      done(
        handshaken
          ? { text: refusedCertificate(security, 'it closed the connection after the handshake'), definite: true }
          : undefined,
      ),
    );
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(explainTlsError(error, settings.serverName ?? host, security, handshaken)),
    );
  });
}

function refusedCertificate(security: TemporalSecurityConfig, detail: string): string {
  const cert = security.tls?.clientCert;
  return cert
    ? `refused the client certificate (TEMPORAL_TLS_CLIENT_CERT_PATH=${cert.certPath}, ${cert.subject}): ${detail}`
    : `wants a client certificate (set TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH): ${detail}`;
}

/** OpenSSL's `C0DC…:error:0A000418:SSL routines:ssl3_read_bytes:tlsv1 alert unknown ca:../deps/…` is `tlsv1 alert unknown ca`. */
const opensslReason = (message: string) =>
  oneLine(message.replace(/^[0-9A-F]+:error:[0-9A-F]+:[^:]*:[^:]*:([^:]+):.*$/s, '$1'));

function explainTlsError(
  error: NodeJS.ErrnoException,
  name: string,
  security: TemporalSecurityConfig,
  handshaken: boolean,
): TlsDiagnosis {
  const text = tlsErrorText(error, name, security, handshaken);
  const code = error.code ?? '';
  // Not reached yet is not refused: a server still starting may answer the SDK's retries.
  const definite = !['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code);
  return { text, definite };
}

function tlsErrorText(
  error: NodeJS.ErrnoException,
  name: string,
  security: TemporalSecurityConfig,
  handshaken: boolean,
): string {
  const detail = opensslReason(error.message);
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return `refused the connection (check TEMPORAL_ADDRESS): ${detail}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `could not be resolved (check TEMPORAL_ADDRESS): ${detail}`;
  if (
    /ALERT_(CERTIFICATE_REQUIRED|UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|CERTIFICATE_EXPIRED|ACCESS_DENIED|HANDSHAKE_FAILURE|DECRYPT_ERROR)/.test(
      code,
    ) ||
    /alert (certificate required|unknown ca|bad certificate|certificate unknown|certificate expired|access denied)/i.test(
      detail,
    )
  ) {
    return refusedCertificate(security, detail);
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `presented a certificate not valid for "${name}" (check TEMPORAL_TLS_SERVER_NAME): ${detail}`;
  }
  if (
    /SELF_SIGNED|UNABLE_TO_(GET_ISSUER|VERIFY_LEAF)|CERT_UNTRUSTED|CERT_(HAS_EXPIRED|NOT_YET_VALID)|UNABLE_TO_GET_ISSUER_CERT_LOCALLY/.test(
      code,
    )
  ) {
    return `presented a certificate that is not trusted (check TEMPORAL_TLS_SERVER_CA_CERT_PATH): ${detail}`;
  }
  if (/WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|UNKNOWN_PROTOCOL|RECORD_LAYER_FAILURE/i.test(code + detail)) {
    return `does not speak TLS on that port (TEMPORAL_TLS=false for a plaintext server, or check TEMPORAL_ADDRESS): ${detail}`;
  }
  // Reset right after the handshake: the server dropped the connection over the client's certificate.
  if (handshaken && (code === 'ECONNRESET' || code === 'EPIPE')) return refusedCertificate(security, detail);
  return `failed the TLS handshake (check TEMPORAL_TLS_SERVER_CA_CERT_PATH, TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_SERVER_NAME): ${detail}`;
}

function splitAddress(address: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  return match ? { host: match[1]!, port: Number(match[2]) } : { host: address, port: 7233 };
}

const isIp = (host: string) => /^[\d.]+$/.test(host) || host.includes(':');
