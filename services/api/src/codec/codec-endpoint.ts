/**
 * Builds the codec endpoint (/codec) from the configuration: the codec router with its credentials
 * (the admin token, a browser's sign-in cookie, the optional encode token) and its sign-in pages.
 */
import type { Config } from '../../../../lib/config';
import type { Logger } from '../../../../lib/log';
import { createPayloadCodec } from '../../../../lib/payload-codec/payload-codec';
import { adminTokenCredential, encodeTokenCredential, signInCookieCredential } from './codec-credentials';
import { codecRouter } from './codec-router';
import { createCodecSessions } from './codec-session';
import { codecSignInRouter } from './codec-sign-in';

/**
 * The codec endpoint (/codec) behind the admin token: the Temporal Web UI and CLI decode what the
 * service put into Temporal through it. Another credential (an OAuth scope) is one more entry of
 * `credentials`.
 */
export function codecEndpoint(config: Config, token: string, log: Logger) {
  const sessions = createCodecSessions(token, config.codecEndpoint.sessionTtlMs);
  return codecRouter({
    // For display: a payload recorded before the codec was on is shown as it is.
    codec: createPayloadCodec({ keys: config.payloadCodec.keys, acceptPlaintext: true }),
    namespace: config.temporal.namespace,
    allowedOrigins: config.codecEndpoint.allowedOrigins,
    maxBodyBytes: config.codecEndpoint.maxBodyBytes,
    credentials: [adminTokenCredential(token), signInCookieCredential(sessions)],
    ...(config.codecEndpoint.encodeToken
      ? { encodeCredential: encodeTokenCredential(config.codecEndpoint.encodeToken) }
      : {}),
    signIn: codecSignInRouter({
      token,
      sessions,
      sessionTtlMs: config.codecEndpoint.sessionTtlMs,
      temporalUiUrl: config.admin.temporalUiUrl,
      log,
    }),
    log,
  });
}
