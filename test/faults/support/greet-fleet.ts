/**
 * Many greet exchanges at once, spread over both API processes, each with its own name so every
 * outcome can be matched to its client.
 */
import type { RpcReply } from '../../support/raw-mcp';
import type { FaultStack } from './fault-stack';
import { answerGreet, startGreet, type ApiChoice, type Ask, type LegTrace } from './modern-exchange';

export const namesFor = (scenario: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${scenario}-${i + 1}`);

/** Client `i` prefers API `i % 2` and falls over to the other on a connection error. */
export const apisFor = (stack: FaultStack, i: number): ApiChoice => ({ urls: () => stack.apiUrls(), prefer: i % 2 });

export function startAll(stack: FaultStack, count: number, trace: LegTrace, patienceMs?: number): Promise<Ask[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => startGreet(apisFor(stack, i), trace, stack.keyRing, patienceMs)),
  );
}

export function answerAll(
  stack: FaultStack,
  asks: Ask[],
  names: string[],
  trace: LegTrace,
  patienceMs?: number,
): Promise<RpcReply[]> {
  return Promise.all(asks.map((ask, i) => answerGreet(apisFor(stack, i), ask, names[i]!, trace, patienceMs)));
}

export const greeted = (asks: Ask[], names: string[], replies: RpcReply[]) =>
  asks.map((ask, i) => ({ exchangeId: ask.exchangeId, name: names[i]!, reply: replies[i]! }));
