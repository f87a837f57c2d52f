/**
 * A start-up connection to Temporal that failed, in one line: the address, what went wrong (no
 * answer, refused credentials, a TLS handshake the server refused) and which variable to check.
 */
import type { TemporalTarget } from '../config/temporal-security';
import { StartError, startFailure } from '../start-error';
import { diagnoseTls, oneLine } from './tls-diagnosis';

/** A start-up connection that failed: `message` is one line, naming the address and what to check. */
export class TemporalConnectError extends StartError {
  override readonly name = 'TemporalConnectError';
}

export { startFailure };

/** gRPC status codes the credentials cause. */
const UNAUTHENTICATED = 16;
const PERMISSION_DENIED = 7;

function grpcCode(error: unknown): number | undefined {
  const direct = (error as { code?: unknown })?.code;
  if (typeof direct === 'number') return direct;
  const cause = (error as { cause?: { code?: unknown } })?.cause?.code;
  return typeof cause === 'number' ? cause : undefined;
}

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
