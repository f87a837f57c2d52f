/**
 * The exchange worker as a handle that can be started and stopped again: its own Temporal
 * connection, the worker built by `createExchangeWorker`, and its run. Postgres stays the caller's.
 * A versioned worker (WORKER_VERSIONING=pinned) with WORKER_PROMOTE=current makes its version the
 * deployment's current one once it polls, so `start()` returns when new exchanges reach it.
 */
import os from 'node:os';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { readPinnedExchangesFrom } from '../../lib/metrics/worker-metrics';
import { connectTemporalNative } from '../../lib/temporal/connection';
import { countPinned, promoteVersion } from '../../lib/temporal/worker-deployment';
import { checkSearchAttributes } from '../../lib/temporal/search-attribute-check';
import { createExchangeWorker, exchangeWorkerVersion, type ExchangeWorkerDeps } from '../../services/worker/src/worker';

export interface ServiceWorker {
  /** Connects and starts polling (and promotes its version, when told to); a no-op while it runs. */
  start(): Promise<void>;
  /** Shuts down (rounds in flight finish within the grace time), then closes the connection; a no-op when stopped. */
  stop(): Promise<void>;
  /** The current run: resolves when it ends after a stop or a shutdown signal, rejects if the worker failed. */
  readonly done: Promise<void>;
}

export function createServiceWorker(deps: Omit<ExchangeWorkerDeps, 'connection'>): ServiceWorker {
  let running: { worker: Worker; connection: NativeConnection; done: Promise<void>; unread?: () => void } | undefined;
  const { config, log } = deps;
  const version = exchangeWorkerVersion(deps);
  return {
    async start() {
      if (running) return;
      const connection = await connectTemporalNative(config.temporal);
      try {
        // A namespace without an attribute the workflows write would stall their exchanges.
        await checkSearchAttributes(connection.operatorService, config.temporal.namespace, log);
        const worker = await createExchangeWorker({ ...deps, connection });
        running = { worker, connection, done: worker.run() };
      } catch (error) {
        await connection.close();
        throw error;
      }
      if (!version) return;
      const { namespace } = config.temporal;
      running.unread = readPinnedExchangesFrom(version, () =>
        countPinned(connection.workflowService, namespace, version),
      );
      if (config.temporal.versioning?.promote !== 'current') {
        log.info({ ...version }, 'worker version polling; promote it to take new exchanges (WORKER_PROMOTE=off)');
        return;
      }
      // Not being current is no reason to stop: the version still finishes the exchanges pinned to
      // it, and the operator can promote it by hand.
      const outcome = await promoteVersion(connection.workflowService, namespace, version, {
        identity: `durable-mcp worker ${process.pid}@${os.hostname()}`,
        log,
      }).catch((error: unknown) => {
        log.error({ err: error, ...version }, 'worker version could not be made current (WORKER_PROMOTE=current)');
        return undefined;
      });
      if (outcome === 'newer-is-current')
        log.warn(
          { ...version },
          'a newer worker version is current: this one only finishes the exchanges pinned to it',
        );
      else if (outcome) log.info({ ...version, outcome }, 'worker version is current: new exchanges start on it');
    },
    async stop() {
      if (!running) return;
      const { worker, connection, done, unread } = running;
      running = undefined;
      unread?.();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      try {
        await done;
      } finally {
        await connection.close();
      }
    },
    get done() {
      return running?.done ?? Promise.resolve();
    },
  };
}
