/**
 * A development stack's Temporal Web UI reads payloads decoded on first visit: the service trusts
 * connections from loopback at its codec endpoint (CODEC_TRUST_LOOPBACK), so the UI, which runs
 * in a browser on the same machine, needs no sign-in and no codec settings. Only where the API
 * listens on loopback and no proxy stands in front (the service refuses the switch otherwise); a
 * value the environment sets either way is kept.
 */
import { isLoopbackHost } from '../../lib/loopback-host';

export function devCodecTrustEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (env.CODEC_TRUST_LOOPBACK !== undefined) return {};
  if (!isLoopbackHost(env.HOST || '127.0.0.1')) return {};
  if ((env.TRUST_PROXY ?? '').trim() !== '' || env.NODE_ENV === 'production') return {};
  return { CODEC_TRUST_LOOPBACK: 'true' };
}

/** Whether the service runs with the codec endpoint trusting loopback, for the banner. */
export const codecTrustsLoopback = (env: NodeJS.ProcessEnv): boolean => env.CODEC_TRUST_LOOPBACK === 'true';
