/**
 * The legs of the bare baseline waiting for their round's step, by `exchangeId:round`: a leg
 * registers before it starts or signals the workflow, and the round's activity (in this process,
 * or another one through the front's `POST /outcome`) resolves it.
 */
import type { Step } from './tools';

const LEG_WAIT_MS = 30_000;

const waiters = new Map<string, (step: Step) => void>();

export const roundKey = (exchangeId: string, round: number) => `${exchangeId}:${round}`;

export function waitForStep(key: string): Promise<Step> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiters.delete(key);
      reject(new Error(`round ${key} did not run within ${LEG_WAIT_MS} ms`));
    }, LEG_WAIT_MS);
    waiters.set(key, (step) => {
      clearTimeout(timer);
      resolve(step);
    });
  });
}

/** Hands a round's step to the leg waiting for it, if one still is. */
export function deliverStep(key: string, step: Step): void {
  waiters.get(key)?.(step);
  waiters.delete(key);
}

/** Hands over a step a worker in another process posted (`{ key, step }` as JSON). */
export function deliverPostedStep(body: Buffer): void {
  const { key, step } = JSON.parse(body.toString('utf8')) as { key: string; step: Step };
  deliverStep(key, step);
}

/** Forgets a leg that will not wait (its start or signal failed). */
export function dropWaiter(key: string): void {
  waiters.delete(key);
}
