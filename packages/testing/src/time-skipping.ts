/**
 * `@durable-mcp/testing/time-skipping`: the real exchange workflow, on a real worker with the real
 * round activities, in Temporal's time-skipping test server. A test starts an exchange on its
 * handler set, reads the ask, and either answers it or lets the round timeout (600 s by default)
 * pass in milliseconds and sees the exchange end as expired, with the error a client would get.
 *
 * It needs a Postgres (`databaseUrl`, `DATABASE_URL` or a `pg` pool; the service's migrations are
 * applied to it) and the time-skipping test server (`TEMPORAL_TEST_SERVER_PATH`, or
 * `temporal-test-server` on PATH; downloaded by the SDK when neither is there).
 *
 * @example
 * ```ts
 * const exchanges = await createTimeSkippingExchanges({ handlers, databaseUrl });
 * const exchange = await exchanges.startTool('approve_refund', { amount: 40 }, { capabilities: { elicitation: {} } });
 * expect((await exchange.round(1)).outcome.kind).toBe('ask');
 * const ending = await exchange.ending(); // nobody answers: 600 s pass in milliseconds
 * expect(ending.error?.code).toBe(EXCHANGE_EXPIRED);
 * await exchanges.teardown();
 * ```
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  createTimeSkippingExchanges as onEnvironment,
  type TimeSkippingExchanges,
  type TimeSkippingOptions,
} from 'durable-mcp/harness';

export {
  EXCHANGE_EXPIRED,
  ROUND_CAP_EXCEEDED,
  TEST_SERVER_PATH_VARIABLE,
  findTestServer,
  type ExchangeEnding,
  type StartOptions,
  type TestExchange,
  type TimeSkippingExchanges,
  type TimeSkippingOptions,
} from 'durable-mcp/harness';

/** Starts a test server and a worker of `options.handlers` on it; `teardown()` stops both. */
export function createTimeSkippingExchanges(options: TimeSkippingOptions): Promise<TimeSkippingExchanges> {
  return onEnvironment(TestWorkflowEnvironment, options);
}
