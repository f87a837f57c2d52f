/**
 * A fault scenario is a jest test whose failure message carries the tail of every process's log,
 * since the cause of a lost exchange is usually in a log of a process the test only signalled.
 */
import type { FaultStack } from './fault-stack';

export interface ScenarioRun {
  failed: boolean;
}

export function scenario(name: string, stack: () => FaultStack, run: ScenarioRun, body: () => Promise<void>, timeoutMs = 180_000): void {
  it(
    name,
    async () => {
      try {
        await body();
      } catch (error) {
        run.failed = true;
        const err = error instanceof Error ? error : new Error(String(error));
        err.message += `\n\nProcess logs (${stack().scratch}):\n${stack().tails()}`;
        throw err;
      }
    },
    timeoutMs,
  );
}
