/**
 * The handler's own requestState, sealed between rounds.
 *
 * A handler returns opaque state with its ask and gets it back on re-entry. It never leaves the
 * service (the workflow carries it), but it is sealed and bound to its exchange and round anyway,
 * so a handler can trust it on every era's path the same way.
 */
import type { Sealer } from './sealer';

export interface HandlerStateCodec {
  seal(state: string, binding: { exchangeId: string; round: number }): string;
  open(sealed: string, binding: { exchangeId: string; round: number }): string;
}

export function createHandlerStateCodec(sealer: Sealer): HandlerStateCodec {
  const context = (b: { exchangeId: string; round: number }) => `${b.exchangeId}#${b.round}`;
  return {
    seal: (state, binding) => sealer.seal('handler-state', state, context(binding)),
    open: (sealed, binding) => sealer.open('handler-state', sealed, context(binding)),
  };
}
