/**
 * A fault scenario is a jest test whose failure message carries the tail of every process's log,
 * since the cause of a lost exchange is usually in a log of a process the test only signalled.
 */
import { startFaultStack, type FaultStack, type FaultStackOptions } from './fault-stack';

export interface ScenarioRun {
  failed: boolean;
}

export function scenario(
  name: string,
  stack: () => FaultStack,
  run: ScenarioRun,
  body: () => Promise<void>,
  timeoutMs = 180_000,
): void {
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

/** The stack of one fault test file: started before its scenarios, stopped after them (its logs kept when one failed). */
export interface FaultSuite {
  readonly stack: FaultStack;
  readonly run: ScenarioRun;
}

export function faultSuite(options: FaultStackOptions = {}): FaultSuite {
  let stack: FaultStack | undefined;
  const run: ScenarioRun = { failed: false };
  beforeAll(async () => {
    stack = await startFaultStack(options);
  }, 300_000);
  afterAll(async () => stack?.close(run.failed));
  return {
    get stack() {
      if (!stack) throw new Error('the fault stack is not started');
      return stack;
    },
    run,
  };
}

/** Rounds numbered `round` recorded since `since` (the test's clock; Postgres runs on this machine). */
export async function roundsRecordedSince(stack: FaultStack, since: Date, round: number): Promise<number> {
  const rows = await stack.query<{ n: string }>(
    'SELECT count(*) AS n FROM exchange_rounds WHERE round = $1 AND recorded_at >= $2',
    [round, since],
  );
  return Number(rows[0]!.n);
}

/** Replaces the running worker with a fault worker that holds the first activity matching `pause` open. */
export async function pausedWorker(stack: FaultStack, pause: string) {
  await stack.stopWorker('SIGTERM');
  return stack.startWorker({ pause });
}
