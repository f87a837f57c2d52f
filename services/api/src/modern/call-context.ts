/** The per-leg context a 2026-07-28 method handler runs in. */
import type { ResponseChannel } from '../http/response-channel';

/** What a method handler gets besides its params: the client's abort and the response channel. */
export interface CallContext {
  signal: AbortSignal;
  channel: ResponseChannel;
}
