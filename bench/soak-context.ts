/**
 * What every soak driver works with: the stack, its clients' tokens, the ledger, and how a client
 * reaches the service while API replicas die and come back: each request goes to an API that is
 * up, and on a connection error (or any failure to get a reply) to the next one, as the fault
 * suite's modern driver does (test/faults/support/modern-exchange.ts `sendLeg`).
 */
import type { FaultStack } from '../test/faults/support/fault-stack';
import { sleep } from '../test/faults/support/wait-for';
import type { ApiChoice, LegTrace } from '../test/faults/support/modern-exchange';
import type { SoakAuth } from './soak-auth';
import type { SoakLedger } from './soak-ledger';

export interface SoakContext {
  stack: FaultStack;
  auth: SoakAuth;
  ledger: SoakLedger;
  /** Legs, state-only results and connection errors (of every driver's requests). */
  trace: LegTrace;
  /** Legacy calls sent again under their request id after their stream broke or went quiet. */
  reattaches: number;
  /** How long a client follows one leg (or waits for one thing) before it gives up. */
  patienceMs: number;
  /** How long a client (or the approver) takes to answer each ask. */
  thinkMs: number;
}

/** The pause before an answer: a person reading the question, so exchanges stay open across kills. */
export const think = (ctx: SoakContext) => sleep(ctx.thinkMs);

/** The client's handle on the exchange it drives, once it has one (for the ledger's notes). */
export interface SoakTrack {
  ref?: string;
  /** Set once its driver returned or gave up. */
  done?: boolean;
}

/** The caller of /mcp as the fault suite's 2026-07-28 drivers take it: both APIs, its token, its principal. */
export const callerApis = (ctx: SoakContext, prefer: number, capabilities?: Record<string, unknown>): ApiChoice => ({
  urls: () => ctx.stack.apiUrls(),
  prefer,
  headers: ctx.auth.callerHeaders,
  principal: ctx.auth.callerPrincipal,
  ...(capabilities ? { capabilities } : {}),
});

/** Why `send` failed, in one line. */
export const why = (error: unknown) =>
  ((error as Error)?.message ?? String(error)).split('\n')[0]!.slice(0, 300) +
  ((error as { cause?: { code?: string } })?.cause?.code
    ? ` (${(error as { cause: { code: string } }).cause.code})`
    : '');

/**
 * `send` on the /mcp URL of an API that is up, preferring slot `prefer`; while it throws, again on
 * the next one a moment later, for up to the context's patience. `connectionErrors` counts the
 * retries in the trace.
 */
export async function onLiveApi<T>(
  ctx: SoakContext,
  what: string,
  send: (url: string) => Promise<T>,
  prefer = 0,
): Promise<T> {
  const deadline = Date.now() + ctx.patienceMs;
  for (let attempt = prefer; ; attempt++) {
    const urls = ctx.stack.apiUrls();
    const url = urls[attempt % Math.max(urls.length, 1)];
    try {
      if (!url) throw new Error('no API process is up');
      return await send(url);
    } catch (error) {
      ctx.trace.connectionErrors += 1;
      if (Date.now() > deadline) throw new Error(`${what}: no reply in ${ctx.patienceMs} ms: ${why(error)}`);
      await sleep(250);
    }
  }
}

/** Polls `probe` on live APIs until it returns something, for up to the context's patience. */
export async function untilOnLiveApi<T>(
  ctx: SoakContext,
  what: string,
  probe: (url: string) => Promise<T | undefined>,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + ctx.patienceMs;
  let last = 'nothing yet';
  for (let attempt = 0; ; attempt++) {
    const urls = ctx.stack.apiUrls();
    const url = urls[attempt % Math.max(urls.length, 1)];
    try {
      const value = url ? await probe(url) : undefined;
      if (value !== undefined) return value;
    } catch (error) {
      last = why(error);
    }
    if (Date.now() > deadline) throw new Error(`${what}: not there after ${ctx.patienceMs} ms (last: ${last})`);
    await sleep(intervalMs);
  }
}
