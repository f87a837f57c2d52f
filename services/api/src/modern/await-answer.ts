/**
 * A leg of `await_answer` (catalog/await-answer-tool.ts): its handle read and checked against the
 * call it names, which must be a `tools/call` of this caller's. Its first leg joins that call's
 * exchange (`attachTo`); its retries carry a requestState minted for them, bound to this handle.
 */
import type { ExchangeCall } from '../../../../lib/db/exchange-store';
import type { OriginalRequest } from '../../../../lib/exchange/types';
import { handleOf, unknownHandle } from '../catalog/await-answer-tool';

/** What an `await_answer` leg waits on: the tool its call called, and on its first leg, the exchange it joins. */
export interface AwaitedCall {
  tool: string;
  attachTo?: string;
}

export type AwaitAnswer = (request: OriginalRequest, principal: string, first: boolean) => Promise<AwaitedCall>;

export function createAwaitAnswer(readCall: (exchangeId: string) => Promise<ExchangeCall | undefined>): AwaitAnswer {
  return async (request, principal, first) => {
    const handle = handleOf((request.params as { arguments?: unknown }).arguments);
    const call = await readCall(handle);
    // Someone else's call and no call at all are refused alike: a handle tells nobody else anything.
    if (!call || call.principal !== principal || call.method !== 'tools/call') throw unknownHandle();
    return { tool: call.target, ...(first ? { attachTo: handle } : {}) };
  };
}
