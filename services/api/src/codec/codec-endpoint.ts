/**
 * Builds the codec endpoint (/codec) from the configuration: the codec router with its credentials
 * (the admin token, a browser's sign-in cookie, the optional encode token) and its sign-in pages.
 */
import type { Config } from '../../../../lib/config';
import type { Logger } from '../../../../lib/log';
import type { TokenGuesses } from '../auth/token-guesses';
import { createPayloadCodec } from '../../../../lib/payload-codec/payload-codec';
import {
  adminTokenCredential,
  encodeTokenCredential,
  loopbackCredential,
  signInCookieCredential,
} from './codec-credentials';
import { codecRouter } from './codec-router';
import { createCodecSessions } from './codec-session';
import { codecSignInRouter } from './codec-sign-in';

/**
 * The codec endpoint (/codec) behind the admin token: the Temporal Web UI and CLI decode what the
 * service put into Temporal through it. Another credential (an OAuth scope) is one more entry of
 * `credentials`.
 */
export function codecEndpoint(config: Config, token: string, guesses: TokenGuesses, log: Logger) {
  const sessions = createCodecSessions(token, config.codecEndpoint.sessionTtlMs, config.codecEndpoint.sessionEpoch);
  return codecRouter({
    // For display: a payload recorded before the codec was on is shown as it is, and one encrypted
    // before payloads were bound opens. The UI names the namespace only (X-Namespace, checked to be
    // the one served), never the workflow: decoding checks a payload's namespace alone, and what
    // /codec/encode mints is bound to the namespace alone (unbound while the deployment writes so).
    codec: createPayloadCodec({
      ...config.payloadCodec,
      acceptPlaintext: true,
      unbound: config.payloadCodec.unbound === 'write' ? 'write' : 'accept',
    }),
    namespace: config.temporal.namespace,
    allowedOrigins: config.codecEndpoint.allowedOrigins,
    maxBodyBytes: config.codecEndpoint.maxBodyBytes,
    credentials: [
      adminTokenCredential(token),
      signInCookieCredential(sessions),
      // A development stack's Web UI decodes on first visit (CODEC_TRUST_LOOPBACK; refused beyond loopback).
      ...(config.codecEndpoint.trustLoopback ? [loopbackCredential()] : []),
    ],
    ...(config.codecEndpoint.encodeToken
      ? { encodeCredential: encodeTokenCredential(config.codecEndpoint.encodeToken) }
      : {}),
    signIn: codecSignInRouter({
      token,
      sessions,
      sessionTtlMs: config.codecEndpoint.sessionTtlMs,
      temporalUiUrl: config.admin.temporalUiUrl,
      guesses,
      log,
    }),
    guesses,
    log,
  });
}
