/**
 * Signs the gateway's policy decisions into the evidence log (lib/db/gateway-decisions-pg.ts): the
 * worker records each decision, and the API, which alone holds the evidence key, signs it. Woken by
 * the worker's notification (and whenever the listener may have missed one), and by a sweep every
 * `sweepMs` for a signing that failed; one signing at a time per replica, and replicas skip each
 * other's rows. An export of an exchange signs that exchange's decisions first (`signedFirst`), so
 * it holds every decision recorded before it was asked for.
 */
import { DECISION_CHANNEL, DECISION_PENDING, type DecisionSigner } from '../../../../lib/db/gateway-decisions-pg';
import type { EvidenceReader } from '../../../../lib/db/evidence-log-pg';
import type { PgListener } from '../../../../lib/db/pg-listener';
import { postgresErrorFields } from '../../../../lib/db/connection-loss';
import type { Logger } from '../../../../lib/log';

export interface DecisionSigning {
  stop(): void;
}

export function startDecisionSigning(
  signer: DecisionSigner,
  listener: PgListener,
  log: Logger,
  sweepMs = 30_000,
): DecisionSigning {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const sign = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = signer
      .signPending()
      .then((count) => {
        if (count > 0) log.debug({ count }, 'gateway decisions signed into the evidence log');
      })
      .catch((error: unknown) =>
        // Postgres going away (a restart, the dev stack stopping) is one line, not a stack trace.
        log.error(postgresErrorFields(error), 'gateway decisions could not be signed; the sweep tries again'),
      )
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          sign();
        }
      });
  };
  const unsubscribe = listener.subscribe(DECISION_CHANNEL, DECISION_PENDING, sign);
  const sweep = setInterval(sign, sweepMs);
  sweep.unref();
  sign();
  return {
    stop() {
      stopped = true;
      clearInterval(sweep);
      unsubscribe();
    },
  };
}

/** The reader of exports, signing what is pending first: an export holds every decision recorded before it. */
export const signedFirst = (reader: EvidenceReader, signer: DecisionSigner): EvidenceReader => ({
  async exchange(exchangeId) {
    await signer.signPending(exchangeId);
    return reader.exchange(exchangeId);
  },
  async range(from, to) {
    await signer.signPending();
    return reader.range(from, to);
  },
});
