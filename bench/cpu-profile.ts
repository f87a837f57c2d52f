/**
 * `npm run bench -- --profile DIR`: the bench's processes under V8's sampling profiler. Each API,
 * worker or baseline process runs as `node --cpu-prof --cpu-prof-dir DIR/<target>-<role>` and
 * writes one `.cpuprofile` per thread when it exits (the Temporal worker's workflow threads too);
 * the bench writes the measured phases' windows to `DIR/phases.json`, so
 * `npm run bench:profile-summary` (bench/profile-summary.ts) counts only what they ran, without
 * start-up (the workflow bundle's build) or warm-up. The windows are on the monotonic clock in
 * microseconds, the clock V8 stamps its samples with.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ScenarioName, TargetName } from './options';

export const PHASES_FILE = 'phases.json';

/** One measured phase of one target: when it ran (monotonic µs) and how many exchanges it completed. */
export interface ProfiledPhase {
  target: TargetName;
  scenario: ScenarioName;
  concurrency: number;
  completed: number;
  startUs: number;
  endUs: number;
}

/** The monotonic clock in microseconds (CLOCK_MONOTONIC, as V8's profiler reads it). */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/** The `node` flags that profile one of the bench's processes, or none when the run does not profile. */
export function cpuProfileArgs(dir: string | undefined, target: TargetName, role: string): string[] {
  if (!dir) return [];
  const out = path.join(dir, `${target}-${role}`);
  mkdirSync(out, { recursive: true });
  return ['--cpu-prof', '--cpu-prof-dir', out];
}

/** Writes every phase measured so far (rewritten after each, so an interrupted run keeps what it measured). */
export function writePhases(dir: string, phases: readonly ProfiledPhase[]): void {
  writeFileSync(path.join(dir, PHASES_FILE), `${JSON.stringify(phases, null, 1)}\n`);
}
