/**
 * The windows where an API has written to Postgres and not yet reached Temporal: API 0 reaches
 * Temporal only through a gate (temporal-gate.ts); a request is sent with the gate held, so the API
 * commits what it writes (an answer's claim, a new call's quota and row), yet its signal or
 * workflow start never reaches Temporal; once the write is seen, API 0 is SIGKILLed and started
 * again reaching Temporal directly. The worker and API 1 reach Temporal directly throughout.
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

/** A request to API 0 sent with the gate held, and what it writes in Postgres before its call to Temporal. */
export interface HeldRequest<T> {
  send: () => Promise<T>;
  /** What it writes, as a wait names it, and whether it is in Postgres yet. */
  written: [what: string, done: () => Promise<boolean>];
}

export interface GatedApi {
  /**
   * Holds the gate, sends the request, waits for what it writes, SIGKILLs API 0, then starts API 0
   * again without the gate: the request's reply (NO_REPLY when the kill cut it).
   */
  killWhileHeld<T>(request: HeldRequest<T>): Promise<T | typeof NO_REPLY>;
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
    const killWhileHeld = async <T>({ send, written: [what, done] }: HeldRequest<T>, atKill?: () => Promise<void>) => {
      gate.hold();
      const replied = send().then(
        (reply): T | typeof NO_REPLY => reply,
        () => NO_REPLY,
      );
      await waitFor(what, done);
      await stack.stopApi(0, 'SIGKILL');
      throughGate = false;
      const reply = await replied;
      await atKill?.();
      await gate.close();
      await stack.startApi(0);
      return reply;
    };
    return await scenario({
      killWhileHeld: (request) => killWhileHeld(request),
      async claimThenKill<T>({ workflowId, send, claimed }: ClaimThenKill<T>) {
        let atKill: HistoryCounts | undefined;
        const reply = await killWhileHeld({ send, written: claimed }, async () => {
          atKill = await historyCounts(stack, workflowId);
        });
        return { reply, atKill: atKill! };
      },
    });
  } finally {
    await gate.close();
    if (throughGate) await stack.stopApi(0, 'SIGKILL');
    if (!stack.apiRunning(0)) await stack.startApi(0);
  }
}
