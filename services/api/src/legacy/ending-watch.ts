/**
 * While a legacy stream is delivered, asks Temporal every `everyMs` whether the workflows of
 * its running calls still run. One that Temporal closed without recording an ending (terminated,
 * timed out, removed) gets it recorded by the reconciler, which projects the withdrawals and the
 * response into the stream like any other ending; so a client never waits on a dead call for ever.
 */
import type { ExchangeReconciler } from '../../../../lib/exchange-client/exchange-reconciler';

export function watchEndings(
  reconciler: ExchangeReconciler,
  runningCalls: () => Promise<string[]>,
  everyMs: number,
  stop: AbortSignal,
): void {
  const timer = setInterval(() => {
    void runningCalls()
      .then(async (exchangeIds) => {
        for (const exchangeId of exchangeIds) await reconciler.reconcile(exchangeId);
      })
      .catch(() => undefined); // the next tick asks again
  }, everyMs);
  timer.unref();
  stop.addEventListener('abort', () => clearInterval(timer), { once: true });
}
