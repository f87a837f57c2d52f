/** What a bench target is, and what starting one is given and gives back. */
import type { TargetName } from './options';

/** Process roles whose CPU the bench reports. */
export type Role = 'temporal' | 'api' | 'worker' | 'postgres';

export interface TargetSpec {
  name: TargetName;
  label: string;
  /** The process under `api` also runs the worker (or is the whole baseline). */
  oneProcess: boolean;
  temporal: boolean;
}

export interface RunningTarget {
  spec: TargetSpec;
  url: string;
  /** Root process ids per role (descendants count with them). */
  processes: Partial<Record<Role, number[]>>;
  temporal?: { address: string; taskQueue: string };
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
  /** Extra configuration for the service's processes (dev and prod targets), e.g. larger budgets. */
  serviceEnv?: Record<string, string>;
  /** Profile the target's Node processes into this folder (bench/cpu-profile.ts). */
  profileDir?: string;
}
