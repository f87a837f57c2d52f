/**
 * The claim-to-signal window of an API: API 0 reaches Temporal only through a gate
 * (temporal-gate.ts); a request is sent with the gate held shut, so the API claims in Postgres and
 * commits what it took, yet its signal never reaches Temporal; once the claim is seen, API 0 is
 * SIGKILLed and started again reaching Temporal directly. The worker and API 1 reach Temporal
 * directly throughout.
 */
import type { FaultStack } from './fault-stack';
import { historyCounts, type HistoryCounts } from './temporal-probe';
import { openTemporalGate } from './temporal-gate';
import { waitFor } from './wait-for';

/** What a request cut short by the kill got. */
export const NO_REPLY = 'no reply' as const;

export interface ClaimThenKill<T> {
  /** The workflow whose history is counted at the kill. */
  workflowId: string;
  /** The request to API 0 that claims, sent once the gate is held. */
  send: () => Promise<T>;
  /** What the claim is, as a wait names it, and whether it is in Postgres yet. */
  claimed: [what: string, done: () => Promise<boolean>];
}

export interface GatedApi {
  /**
   * Holds the gate, sends the request, waits for its claim, SIGKILLs API 0, counts the workflow's
   * history while API 0 is down, then starts API 0 again without the gate: the request's reply
   * (NO_REPLY when the kill cut it) and the counts at the kill.
   */
  claimThenKill<T>(window: ClaimThenKill<T>): Promise<{ reply: T | typeof NO_REPLY; atKill: HistoryCounts }>;
}

/**
 * Runs `scenario` with API 0 restarted behind a Temporal gate; afterwards, whatever happened, API 0
 * runs and reaches Temporal directly, for the scenarios that follow.
 */
export async function withGatedApi<R>(stack: FaultStack, scenario: (api: GatedApi) => Promise<R>): Promise<R> {
  const gate = await openTemporalGate(stack.temporalAddress);
  let throughGate = false;
  try {
    await stack.stopApi(0, 'SIGTERM');
    await stack.startApi(0, { TEMPORAL_ADDRESS: gate.address });
    throughGate = true;
    return await scenario({
      async claimThenKill<T>({ workflowId, send, claimed: [what, done] }: ClaimThenKill<T>) {
        gate.hold();
        const replied = send().then(
          (reply): T | typeof NO_REPLY => reply,
          () => NO_REPLY,
        );
        await waitFor(what, done);
        await stack.stopApi(0, 'SIGKILL');
        throughGate = false;
        const reply = await replied;
        const atKill = await historyCounts(stack, workflowId);
        await gate.close();
        await stack.startApi(0);
        return { reply, atKill };
      },
    });
  } finally {
    await gate.close();
    if (throughGate) await stack.stopApi(0, 'SIGKILL');
    if (!stack.apiRunning(0)) await stack.startApi(0);
  }
}
