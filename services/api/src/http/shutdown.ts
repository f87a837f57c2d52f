/**
 * How a stopping API winds down (api.ts's `close`), as two signals what serves a client listens
 * to: `draining` as the stop begins (no new request is taken; waiting legs answer "come back";
 * streams whose clients resume on another replica end with a reconnect hint), then `closing`
 * shortly before the drain grace (API_DRAIN_GRACE_MS) runs out: every stream still open ends
 * cleanly, before the server closes whatever connection is left.
 */
import { setMaxListeners } from 'node:events';

export interface Shutdown {
  readonly draining: AbortSignal;
  readonly closing: AbortSignal;
}

export interface ShutdownControl extends Shutdown {
  /** Starts draining now and closing `graceMs` less a lead later; returns what cancels the closing timer. */
  begin(graceMs: number): () => void;
}

/** How long before the grace ends that open streams are ended, so their last frames go out before the connections close. */
export function closingLeadMs(graceMs: number): number {
  return Math.min(1_000, Math.floor(graceMs / 2));
}

export function createShutdown(): ShutdownControl {
  const draining = new AbortController();
  const closing = new AbortController();
  // Every waiting leg and open stream listens.
  setMaxListeners(0, draining.signal);
  setMaxListeners(0, closing.signal);
  return {
    draining: draining.signal,
    closing: closing.signal,
    begin(graceMs) {
      draining.abort();
      const timer = setTimeout(() => closing.abort(), graceMs - closingLeadMs(graceMs));
      return () => {
        clearTimeout(timer);
        closing.abort();
      };
    },
  };
}

/** How often a stream held open through the drain asks whether it is still needed. */
export const IDLE_CHECK_MS = 250;

/**
 * When a stream held through the drain ends: once draining has begun and `idle` says nothing it
 * carries is still running (asked every IDLE_CHECK_MS), or at `closing`, whichever comes first.
 * Nothing is asked before the drain, nor after `stop` (the stream ended otherwise).
 */
export function endWhenIdle(shutdown: Shutdown, stop: AbortSignal, idle: () => Promise<boolean>): AbortSignal {
  const ended = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const finish = () => {
    clearInterval(timer);
    shutdown.draining.removeEventListener('abort', watch);
    shutdown.closing.removeEventListener('abort', end);
  };
  const end = () => {
    finish();
    ended.abort();
  };
  let asking = false;
  const ask = async () => {
    if (asking || ended.signal.aborted) return;
    asking = true;
    // A failed question counts as "still running": the stream is then held until closing.
    if (await idle().catch(() => false)) end();
    asking = false;
  };
  function watch() {
    timer = setInterval(() => void ask(), IDLE_CHECK_MS);
    void ask();
  }
  if (stop.aborted) return ended.signal;
  if (shutdown.closing.aborted) end();
  else {
    shutdown.closing.addEventListener('abort', end, { once: true });
    if (shutdown.draining.aborted) watch();
    else shutdown.draining.addEventListener('abort', watch, { once: true });
    stop.addEventListener('abort', finish, { once: true });
  }
  return ended.signal;
}

/**
 * A signal that aborts when any of `signals` does, and `dispose` to stop listening to them: for a
 * short-lived wait on a long-lived signal (the drain's), which must not keep a listener per wait.
 */
export function eitherSignal(...signals: AbortSignal[]): { signal: AbortSignal; dispose(): void } {
  const either = new AbortController();
  const abort = () => {
    dispose();
    either.abort();
  };
  const dispose = () => signals.forEach((signal) => signal.removeEventListener('abort', abort));
  if (signals.some((signal) => signal.aborted)) either.abort();
  else signals.forEach((signal) => signal.addEventListener('abort', abort, { once: true }));
  return { signal: either.signal, dispose };
}
