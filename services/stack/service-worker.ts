/**
 * The exchange worker as a handle that can be started and stopped again: its own Temporal
 * connection, the worker built by `createExchangeWorker`, and its run. Postgres stays the caller's.
 */
import { NativeConnection, type Worker } from '@temporalio/worker';
import { createExchangeWorker, type ExchangeWorkerDeps } from '../worker/src/worker';

export interface ServiceWorker {
  /** Connects and starts polling; a no-op while it runs. */
  start(): Promise<void>;
  /** Shuts down (rounds in flight finish within the grace time), then closes the connection; a no-op when stopped. */
  stop(): Promise<void>;
  /** The current run: resolves when it ends after a stop or a shutdown signal, rejects if the worker failed. */
  readonly done: Promise<void>;
}

export function createServiceWorker(deps: Omit<ExchangeWorkerDeps, 'connection'>): ServiceWorker {
  let running: { worker: Worker; connection: NativeConnection; done: Promise<void> } | undefined;
  return {
    async start() {
      if (running) return;
      const connection = await NativeConnection.connect({ address: deps.config.temporal.address });
      try {
        const worker = await createExchangeWorker({ ...deps, connection });
        running = { worker, connection, done: worker.run() };
      } catch (error) {
        await connection.close();
        throw error;
      }
    },
    async stop() {
      if (!running) return;
      const { worker, connection, done } = running;
      running = undefined;
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
