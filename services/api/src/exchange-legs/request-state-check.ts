/**
 * The check of a retry's requestState: sealed by this service, for this call (its request digest)
 * and this caller (its principal), and not expired. Anything that fails verification is refused
 * with one error (-32602), its reason in the log only: requestState is attacker-controlled.
 */
import type { Logger } from '../../../../lib/log';
import { invalidRequestState } from '../../../../lib/protocol/error-catalog';
import {
  RequestStateError,
  type RequestStateClaims,
  type RequestStateCodec,
} from '../../../../lib/state/request-state';
import type { ExchangeLeg } from './leg-types';

export function createRequestStateCheck(codec: RequestStateCodec, log: Logger) {
  /** The claims of a leg's requestState, verified against the leg's call and caller. */
  return function verified(leg: ExchangeLeg, requestState: string, requestDigest: string): RequestStateClaims {
    try {
      return codec.verify(requestState, { requestDigest, principal: leg.principal.id });
    } catch (error) {
      if (!(error instanceof RequestStateError)) throw error;
      log.warn(
        { reason: error.reason, method: leg.request.method, target: leg.request.target },
        'requestState rejected',
      );
      throw invalidRequestState();
    }
  };
}
