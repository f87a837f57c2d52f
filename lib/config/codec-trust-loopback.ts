/**
 * CODEC_TRUST_LOOPBACK: a development stack's codec endpoint trusts connections from loopback, so
 * its Temporal Web UI decodes on first visit. What it trusts is the connection's own address, so
 * the switch is refused wherever that address could stand for someone else: an API listening
 * beyond loopback (a remote client's connection would still not be loopback, but the listener is
 * then a deployment's, not a laptop's), a proxy in front of it (whose connections all come from one
 * address, often loopback, on behalf of everyone) or a production process.
 */
import { isLoopbackHost } from '../loopback-host';
import { parseTrustProxy } from './variables/trust-proxy';

export interface CodecTrustLoopbackInput {
  CODEC_TRUST_LOOPBACK: boolean;
  HOST: string;
  TRUST_PROXY: string;
  NODE_ENV: string;
}

/** Whether the codec endpoint trusts loopback; throws the reason it may not, naming the variable. */
export function codecTrustsLoopback(env: CodecTrustLoopbackInput): boolean {
  if (!env.CODEC_TRUST_LOOPBACK) return false;
  const refused = (why: string) =>
    new Error(`CODEC_TRUST_LOOPBACK is malformed: ${why} (it is for a development stack on this machine only)`);
  if (!isLoopbackHost(env.HOST)) throw refused(`refused with HOST=${env.HOST}, which is not a loopback address`);
  if (parseTrustProxy(env.TRUST_PROXY) !== false)
    throw refused('refused with TRUST_PROXY set: behind a proxy every client comes from its address');
  if (env.NODE_ENV === 'production') throw refused('refused with NODE_ENV=production');
  return true;
}
