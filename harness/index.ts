/**
 * The harness behind `@durable-mcp/testing` (exported as `durable-mcp/harness`): handler authors
 * import that package, which picks from here what it publishes; this is the service's side, which
 * shares the service's own rules, workflow and activities.
 *
 * - `driveTool`, `drivePrompt`, `driveResource`: run a handler round by round in this process, with
 *   no Temporal and no Postgres, under the rules the service applies to every leg (arguments
 *   against the tool's schema, answers only under the keys asked, the sealed requestState round
 *   trip, the round cap, capabilities the client did not declare, the round timeout).
 * - `createTimeSkippingExchanges` (given the SDK's `TestWorkflowEnvironment`): the real exchange workflow and activities on a worker in
 *   Temporal's time-skipping test server, so a test sees a 600 s round timeout pass in milliseconds.
 *
 * A handler set written for `HANDLERS=...` is what both take.
 */
export {
  DEFAULT_MAX_ROUNDS,
  DEFAULT_ROUND_TIMEOUT_MS,
  drivePrompt,
  driveResource,
  driveTool,
  type Answerer,
  type AnswerOptions,
  type Ask,
  type DriveOptions,
  type HandlerNotification,
  type Handlers,
  type JsonRpcError,
  type PromptStep,
  type ResourceStep,
  type Step,
  type ToolStep,
} from './drive';
export type { InputRequest } from '@modelcontextprotocol/server';
export { EXCHANGE_EXPIRED, ROUND_CAP_EXCEEDED } from '../lib/protocol/exchange-errors';
export { INVALID_PARAMS, MISSING_REQUIRED_CLIENT_CAPABILITY } from '../lib/protocol/json-rpc-codes';
export {
  TEST_SERVER_PATH_VARIABLE,
  createTimeSkippingExchanges,
  findTestServer,
  type ExchangeEnding,
  type StartOptions,
  type TestExchange,
  type TimeSkippingExchanges,
  type TimeSkippingOptions,
} from './time-skipping';
