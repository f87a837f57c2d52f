/**
 * One exchange in the time-skipping helper: started as the API starts a first leg (its row in
 * Postgres, then the workflow), its rounds read back from Postgres, its answers sent as the API
 * sends a client's retry, and its ending as the workflow's result and the error a client would get.
 */
import { randomUUID } from 'node:crypto';
// Types only: `@temporalio/testing` is loaded when a helper is created (time-skipping.ts).
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { ExchangeStore, RoundRecord } from '../../lib/db/exchange-store';
import { ANONYMOUS_PRINCIPAL, detailsOf, type Principal } from '../../lib/exchange/principal';
import type { ExchangeInput, ExchangeStatus, OriginalRequest } from '../../lib/exchange/types';
import { fromOutcome } from '../../lib/protocol/error-catalog';
import type { ExchangeResult } from '../../workflows/exchange-workflow';
import { workflowIdFor } from '../../workflows/messages';
import { answersTo } from '../api/src/leg-decisions';
import type { ExchangeGateway } from '../api/src/exchange-gateway';
import type { JsonRpcError } from './drive';

export interface StartOptions {
  /** What the client declares. Default: nothing (an ask is then refused with -32021). */
  capabilities?: ClientCapabilities;
  /** Who calls. Default: the anonymous principal. */
  principal?: Principal;
}

/** How an exchange ended: the workflow's result, and the outcome the service recorded for its last round. */
export interface ExchangeEnding {
  status: ExchangeStatus;
  /** The round whose outcome ended it. */
  round: number;
  asks: number;
  /** The final result, when it completed. */
  result?: Record<string, unknown>;
  /** The JSON-RPC error a client gets, when it did not (an expiry: -32001). */
  error?: JsonRpcError;
}

export interface TestExchange {
  readonly exchangeId: string;
  readonly workflowId: string;
  /** Waits (in real time, with no time skipped) until round `round`'s outcome is recorded, and returns it. */
  round(round: number): Promise<RoundRecord>;
  /** Sends answers to round `round`'s ask, as the API does for a client's retry (only the keys asked are kept). */
  answer(round: number, responses: Record<string, unknown>): Promise<void>;
  /** Waits for the exchange to end, skipping time while nothing else can happen: a round's timeout passes at once. */
  ending(): Promise<ExchangeEnding>;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts an exchange the way the API starts one for a first leg, and hands the test its rounds, answers and ending. */
export async function startExchange(
  env: TestWorkflowEnvironment,
  store: ExchangeStore,
  gateway: ExchangeGateway,
  start: StartOptions & { request: OriginalRequest; roundTimeoutMs: number; maxRounds: number },
): Promise<TestExchange> {
  // Deadlines are set on the worker's clock and timed on the server's: once time was skipped, they part.
  const skew = (await env.currentTimeMs()) - Date.now();
  if (skew > 1_000)
    throw new Error(
      `time was skipped ${skew} ms in this environment already: start each exchange that skips time in a fresh one`,
    );
  const principal = start.principal ?? ANONYMOUS_PRINCIPAL;
  const exchangeId = randomUUID();
  const workflowId = workflowIdFor(exchangeId);
  const capabilities = (start.capabilities ?? {}) as Record<string, unknown>;
  // The exchange's input as the API builds it for a first leg (exchange-legs.ts).
  const input: ExchangeInput = {
    exchangeId,
    era: 'modern',
    request: start.request,
    principal: principal.id,
    principalDetails: detailsOf(principal),
    clientCapabilities: capabilities,
    roundTimeoutMs: start.roundTimeoutMs,
    maxRounds: start.maxRounds,
  };
  await store.createExchange(input, workflowId);
  await gateway.start(input);

  async function round(n: number): Promise<RoundRecord> {
    for (;;) {
      const record = await store.readRound(exchangeId, n);
      if (record) return record;
      await delay(20);
    }
  }

  return {
    exchangeId,
    workflowId,
    round,
    async answer(n, responses) {
      const ask = await round(n);
      if (ask.outcome.kind !== 'ask') throw new Error(`round ${n} did not ask (its outcome: ${ask.outcome.kind})`);
      const answers = answersTo(ask.outcome.inputRequests, responses);
      const delivered = await gateway.sendAnswers(exchangeId, {
        round: n,
        ...answers,
        clientCapabilities: capabilities,
      });
      if (!delivered) throw new Error(`the exchange had ended before round ${n} was answered`);
    },
    async ending() {
      const result = await env.client.workflow.getHandle(workflowId).result();
      const { status, rounds, asks } = result as ExchangeResult;
      const last = await round(rounds);
      const { outcome } = last;
      return {
        status,
        round: rounds,
        asks,
        ...(outcome.kind === 'complete' ? { result: outcome.result } : {}),
        ...(outcome.kind === 'error' ? { error: fromOutcome(outcome.error).toJson() } : {}),
      };
    },
  };
}
