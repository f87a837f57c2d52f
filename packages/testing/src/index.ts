/**
 * Testing handlers written with `@durable-mcp/handlers`.
 *
 * - `driveTool`, `drivePrompt`, `driveResource`: run a handler round by round in this process, with
 *   no Temporal and no Postgres, under the rules the service applies to every leg (arguments
 *   against the tool's schema, answers only under the keys asked, the sealed requestState round
 *   trip, the round cap, capabilities the client did not declare, the round timeout).
 * - `testContext`: a round-1 handler context, for a unit test that calls `run` itself.
 * - `@durable-mcp/testing/time-skipping`: the real exchange workflow and activities in Temporal's
 *   time-skipping test server, so a test sees a 600 s round timeout pass in milliseconds.
 */
export {
  DEFAULT_MAX_ROUNDS,
  DEFAULT_ROUND_TIMEOUT_MS,
  EXCHANGE_EXPIRED,
  INVALID_PARAMS,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  ROUND_CAP_EXCEEDED,
  drivePrompt,
  driveResource,
  driveTool,
  type Answerer,
  type AnswerOptions,
  type Ask,
  type DriveOptions,
  type HandlerNotification,
  type Handlers,
  type InputRequest,
  type JsonRpcError,
  type PromptStep,
  type ResourceStep,
  type Step,
  type ToolStep,
} from 'durable-mcp/harness';
export { ANONYMOUS, testContext } from './test-context';
