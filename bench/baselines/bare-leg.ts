/**
 * One leg of a bare exchange, as the bare front and the floor's client both run it: the first leg
 * starts the exchange's workflow and a later one signals it the answers (the requestState is the
 * exchange's id and the round that asked, in the clear: there is nothing to protect here), and the
 * leg ends when the round's activity hands its step over; the step comes back as the result a
 * 2026-07-28 server sends.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { answersSignal, type BareInput } from './bare-messages';
import { dropWaiter, roundKey, waitForStep } from './bare-waiters';
import type { BenchTool, Step } from './tools';

export interface BareLegParams {
  name: BenchTool;
  inputResponses?: Record<string, unknown>;
  requestState?: unknown;
}

export async function runBareLeg(
  client: Client,
  { taskQueue, local }: { taskQueue: string; local: boolean },
  params: BareLegParams,
): Promise<Record<string, unknown>> {
  const state = typeof params.requestState === 'string' ? params.requestState.split('.') : undefined;
  const exchangeId = state?.[0] ?? randomUUID();
  const round = state ? Number(state[1]) + 1 : 1;
  const key = roundKey(exchangeId, round);
  const step = waitForStep(key);
  try {
    if (round === 1) {
      const input: BareInput = { exchangeId, tool: params.name, local, roundTimeoutMs: 600_000 };
      await client.workflow.start('bareExchange', { workflowId: `bare-${exchangeId}`, taskQueue, args: [input] });
    } else {
      await client.workflow
        .getHandle(`bare-${exchangeId}`)
        .signal(answersSignal, { round, answers: params.inputResponses ?? {} });
    }
  } catch (error) {
    dropWaiter(key);
    void step.catch(() => undefined); // its timer still fires; nobody awaits it now
    throw error;
  }
  return asResult(await step, exchangeId, round);
}

function asResult(step: Step, exchangeId: string, round: number): Record<string, unknown> {
  return step.kind === 'ask'
    ? {
        resultType: 'input_required',
        inputRequests: { [step.key]: step.request },
        requestState: `${exchangeId}.${round}`,
      }
    : { ...step.result, resultType: 'complete' };
}
