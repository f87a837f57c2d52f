/**
 * What a fault scenario can do to the service's processes (fault-stack.ts starts them): kill and
 * start each again, read their logs, and query Postgres and Temporal on fresh connections.
 */
import type { Client as TemporalClient } from '@temporalio/client';
import type { OsProcess } from './os-process';

export interface FaultStackOptions {
  /** Extra environment for the API processes (ROUND_TIMEOUT_MS, say). */
  apiEnv?: Record<string, string>;
  /** Extra environment for the API and worker processes alike (UPSTREAM_URL, say), read when each starts. */
  serviceEnv?: Record<string, string>;
  /** How long a leg waits for an outcome before a state-only result: short, so clients poll. */
  httpWaitMs?: number;
  /**
   * Bundle the workflows once, in the test process, and start every worker of the stack on that
   * bundle (through the fault worker entry), so scenarios that restart workers often save the
   * bundling at each start.
   */
  sharedWorkflowBundle?: boolean;
  /** Extra `temporal server start-dev` arguments (`--dynamic-config-value limit.blobSize.error=...`, say). */
  temporalArgs?: string[];
}

export interface WorkerStart {
  /** A pause spec (support/fault-pause.ts): the worker holds the first matching activity open. */
  pause?: string;
  /** A workflow bundle of its own (`buildWorkflowBundle`): the worker runs this code instead of the stack's. */
  workflowBundle?: string;
}

export interface FaultStack {
  scratch: string;
  keyRing: string;
  temporalAddress: string;
  /** The URLs of the API processes that are up, in slot order (slot 0 and slot 1). */
  apiUrls(): string[];
  apiUrl(slot: 0 | 1): string;
  apiRunning(slot: 0 | 1): boolean;
  /** The process id of the API process in `slot`, while it runs. */
  apiPid(slot: 0 | 1): number | undefined;
  /** The log file of the API process in `slot` (its latest start). */
  apiLogFile(slot: 0 | 1): string;
  /** Starts the API in `slot`; `env` overrides the stack's environment for this start only. */
  startApi(slot: 0 | 1, env?: Record<string, string>): Promise<void>;
  stopApi(slot: 0 | 1, signal: NodeJS.Signals): Promise<void>;
  /** Starts the worker: the service's own main, or with `pause` the fault worker holding a window. */
  startWorker(start?: WorkerStart): Promise<OsProcess>;
  /**
   * Bundles the workflows of `workflowsPath` (a module exporting workflow functions) into the
   * scratch folder as `name`, for `startWorker({ workflowBundle })`; returns its path.
   */
  buildWorkflowBundle(workflowsPath: string, name: string): Promise<string>;
  /** The Temporal dev server process (its latest start). */
  temporal(): OsProcess | undefined;
  /** The embedded Postgres's process (its node wrapper; the server and backends are its children). */
  postgres(): OsProcess | undefined;
  /** The running worker, if any. */
  worker(): OsProcess | undefined;
  stopWorker(signal: NodeJS.Signals): Promise<string | undefined>;
  /** Every worker log file so far, oldest first. */
  workerLogs(): string[];
  killTemporal(): Promise<void>;
  startTemporal(): Promise<void>;
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  /** One query on a fresh connection (the pool a test would hold dies with each Postgres restart). */
  query<R extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** A Temporal client on a fresh connection, closed after `use`. */
  withTemporal<T>(use: (client: TemporalClient) => Promise<T>): Promise<T>;
  /** The last lines of every process's log, for a failing scenario's message. */
  tails(lines?: number): string;
  /** Stops everything; keeps the scratch folder (and says where) when `keepScratch`. */
  close(keepScratch: boolean): Promise<void>;
}
