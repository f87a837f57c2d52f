/** What a bench target is, and what starting one is given and gives back. */
import type { Caller } from './load';
import type { TargetName } from './options';

/** Process roles whose CPU the bench reports; `upstream` is the MCP server the gateway target stands in front of. */
export type Role = 'temporal' | 'api' | 'worker' | 'postgres' | 'upstream';

export interface TargetSpec {
  name: TargetName;
  label: string;
  /** The process under `api` also runs the worker (or is the whole baseline). */
  oneProcess: boolean;
  temporal: boolean;
}

export interface RunningTarget {
  spec: TargetSpec;
  /** Its MCP endpoint; absent for the `floor`, which has no HTTP leg. */
  url?: string;
  /** How the load generator calls its tools: over HTTP to `url`, or the floor's own client. */
  call: Caller;
  /** Root process ids per role (descendants count with them). */
  processes: Partial<Record<Role, number[]>>;
  /** The target's Temporal: its frontend, the task queue its exchanges run on, its Prometheus endpoint if it has one. */
  temporal?: { address: string; taskQueue: string; metricsUrl?: string };
  /** The inspector address of the service's processes, by role, when started with `inspect` (prod and dev). */
  inspectors?: Partial<Record<Role, string>>;
  /** Why a process of the target has exited, if one has (it should not while measured). */
  exited(): string | undefined;
  stop(): Promise<void>;
}

/** One embedded Postgres for the whole run; each service target gets a database of its own. */
export interface SharedPostgres {
  pid: number;
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

export interface TargetContext {
  /** A fresh folder for this target's Temporal database and logs. */
  dir: string;
  temporalFlags: readonly string[];
  logLevel: string;
  postgres(): Promise<SharedPostgres>;
  signal: AbortSignal;
  /** The port its MCP endpoint listens on (a free one when absent): known first when a token names it. */
  port?: number;
  /** Extra configuration for the service's processes (dev and prod targets), e.g. larger budgets. */
  serviceEnv?: Record<string, string>;
  /** Start the service's processes with their inspector open, to read their heaps (bench/heap-reading.ts). */
  inspect?: boolean;
  /** Profile the target's Node processes into this folder (bench/cpu-profile.ts). */
  profileDir?: string;
}
