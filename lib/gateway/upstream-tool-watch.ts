/**
 * Keeps one subscription to an upstream's announcements of changes to its tools, prompts and
 * resources (whichever it declares `listChanged` for) open, for as long as the catalog runs: opened
 * at start, and opened again after it drops or fails to open, after a wait that grows with each
 * failure in a row (retry-backoff.ts; a subscription that lasted a while starts the count again).
 * Each announcement, and each reopening after a drop (what was announced meanwhile was missed),
 * calls `changed`, which the catalog coalesces into one listing of everything (coalesced-run.ts).
 * An upstream that announces nothing (no `listChanged` anywhere) is not watched: its periodic
 * listing is all there is, as it is for every upstream while its subscription is down.
 */
import type { Logger } from '../log';
import type { Upstream } from '../upstreams/upstream-declaration';
import { backoffDelay, type BackoffPolicy } from './retry-backoff';
import type { UpstreamClient } from './upstream-client';

/** From one second after the first failure up to a minute between tries. */
export const SUBSCRIPTION_BACKOFF: BackoffPolicy = { initialMs: 1_000, maxMs: 60_000, factor: 2 };

export interface ToolWatch {
  stop(): void;
}

export function watchUpstreamTools(
  upstream: Upstream,
  client: UpstreamClient,
  changed: () => void,
  log: Logger,
  backoff: BackoffPolicy = SUBSCRIPTION_BACKOFF,
): ToolWatch {
  const stopping = new AbortController();
  client.onListsChanged(changed);
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      stopping.signal.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      }
    });

  void (async () => {
    let failures = 0;
    let opened = false;
    while (!stopping.signal.aborted) {
      const started = Date.now();
      try {
        if (opened) changed(); // what was announced while it was down was missed
        const end = await client.listenForListChanges(stopping.signal);
        if (end === 'unannounced') {
          log.info(
            { upstream: upstream.name },
            'upstream does not announce list changes: listed every refreshEveryMs only',
          );
          return;
        }
        opened = true;
        if (Date.now() - started >= backoff.maxMs) failures = 0;
        if (!stopping.signal.aborted)
          log.info({ upstream: upstream.name }, 'upstream tool-change subscription ended; opening it again');
      } catch (error) {
        if (stopping.signal.aborted) return;
        log.warn(
          { upstream: upstream.name, err: error, attempt: failures + 1 },
          'upstream tool-change subscription could not be opened; trying again',
        );
      }
      await pause(backoffDelay(failures, backoff));
      failures += 1;
    }
  })();

  return {
    stop: () => stopping.abort(),
  };
}
