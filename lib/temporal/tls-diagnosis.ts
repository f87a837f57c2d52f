/**
 * Why a TLS connection to Temporal fails, in words: the handshake tried again with node:tls, whose
 * errors name the cause (the server refused the client certificate, its certificate is not signed
 * by a trusted CA, not valid for the name), each with the variable to check. The SDK's own error
 * often says only that the connection failed.
 */
import tls from 'node:tls';
import type { TemporalSecurityConfig } from '../config/temporal-security';

/** An error message on one line. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

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
