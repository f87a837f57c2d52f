/**
 * What the time-skipping helper (time-skipping.ts) takes and hands back: its options, the options
 * of one exchange's start, and the exchange a test drives and reads. Types only.
 */
import type { Answerer } from './drive-types';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkerOptions } from '@temporalio/worker';
import type { ClientCapabilities, ElicitResult } from '@modelcontextprotocol/server';
import type { Pool } from 'pg';
import type { HandlerSet } from '@durable-mcp/handlers';
import type { RoundRecord } from '../lib/exchange/types';
import type { Principal } from '../lib/exchange/principal';
import type { ExchangeStatus } from '../lib/exchange/types';
import type { Logger } from '../lib/log';
import type { JsonRpcError } from './drive';

export interface TimeSkippingOptions {
  /** The handler set the worker serves. */
  handlers: HandlerSet;
  /** The Postgres the rounds are recorded in. Default: `DATABASE_URL`. */
  databaseUrl?: string;
  /** A pool to use instead of `databaseUrl` (left open by `teardown`). */
  pool?: Pool;
  /** ROUND_TIMEOUT_MS of every exchange started. Default: the service's, 600 000 ms. */
  roundTimeoutMs?: number;
  /** MAX_ROUNDS of every exchange started. Default: the service's, 8. */
  maxRounds?: number;
  /** The test server binary. Default: `TEMPORAL_TEST_SERVER_PATH`, else `temporal-test-server` on PATH, else downloaded. */
  testServerPath?: string;
  /**
   * A prebuilt workflow bundle (`bundleWorkflowCode` of the service's workflows, with its failure
   * converter), to save the few seconds of bundling them at start.
   */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** Where the service's logs go. Default: nowhere. */
  log?: Logger;
}

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
  /**
   * Answers round `round`'s questions addressed to someone else (`elicitFrom`) as `answerer`, the way
   * the answer page and API do (checked, claimed in Postgres, signalled): what each key's answer got,
   * `taken` or the refusal (`not-addressed`, `caller-excluded`, `closed`, `late`, ...).
   */
  answerAs(
    round: number,
    answerer: Answerer | 'caller',
    responses: Record<string, ElicitResult>,
  ): Promise<Array<{ key: string; reply: string }>>;
  /** Waits for the exchange to end, skipping time while nothing else can happen: a round's timeout passes at once. */
  ending(): Promise<ExchangeEnding>;
}

export interface TimeSkippingExchanges {
  /** The test environment: `env.sleep(ms)` skips time, `env.client` is a client of its server. */
  readonly env: TestWorkflowEnvironment;
  readonly taskQueue: string;
  /** Calls tool `name` with `args`: starts its exchange the way the API starts one. */
  startTool(name: string, args?: Record<string, unknown>, options?: StartOptions): Promise<TestExchange>;
  /** Stops the worker and the server, and closes the pool it opened. */
  teardown(): Promise<void>;
}
