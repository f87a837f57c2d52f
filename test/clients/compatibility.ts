/**
 * The client compatibility table: for each client in use and each scenario, what that client
 * does against the service, as a short outcome string. This file is the one place the table is
 * written: each test of test/clients asserts that what it observed equals its cell, and
 * `npm run docs:clients` renders it into docs/protocol.md ("Clients, tested";
 * compatibility-table.test.ts fails when the two part). To add a client, add it to CLIENTS and
 * EXPECTED and a test file that runs `describeClient` with its adapter.
 */

/** The service's and the clients' settings the tests use in place of real minutes. */
export const STAND_INS = {
  /**
   * HTTP_WAIT_MS and QUESTION_HOLD_MS: how long a 2026-07-28 leg is held (50 s by default). Three
   * holds, where the Go SDK's loop ends (150 s by default), must outlast the wait past 60 s, as they do.
   */
  holdMs: 1_250,
  /**
   * The TypeScript clients' request timeout (60 s by default in both), and Mastra's and LangChain's (their
   * SDKs', 60 s by default too); the Python, Go and Rust clients have none by default, and none is set;
   * the Inspector CLI's (60 s) has no flag and is left.
   */
  clientTimeoutMs: 3_000,
  /** LEGACY_PENDING_AFTER_MS (50 s by default, under the TypeScript clients' 60 s): when a session's call still waiting is answered pending. */
  legacyPendingAfterMs: 2_500,
  /**
   * PENDING_RESULT_AT_LEG (10 by default), and the clients' own retry caps set to match (10 by
   * default), where the client has one to set: the Go SDK's (10 results, 3 state-only ones) and the
   * Inspector CLI's (10 rounds) are fixed, and Mastra's is its SDK's 10, which it does not let its users set.
   */
  atLeg: 5,
  /** "A wait past 60 s": the approver answers this long after the question is asked. */
  past60sMs: 3_000,
  /** "A wait past 15 minutes": the approver answers once the call has ended, or after this long. */
  past15minMs: 10_000,
};

export type Era = '2026-07-28' | '2025-11-25';

export interface ClientRow {
  /** The client as the table names it. */
  label: string;
  /** The protocol revision its calls carry (`MCP-Protocol-Version`): 2025-11-25 is a legacy session. */
  era: Era;
}

export const CLIENTS = {
  'typescript-2-pinned': {
    label:
      'TypeScript `@modelcontextprotocol/client` 2.4.0, pinned (`versionNegotiation: { mode: { pin: "2026-07-28" } }`)',
    era: '2026-07-28',
  },
  'typescript-2-negotiating': {
    label: 'TypeScript `@modelcontextprotocol/client` 2.4.0, negotiating (its default)',
    era: '2025-11-25',
  },
  'typescript-1': { label: 'TypeScript `@modelcontextprotocol/sdk` 1.32.2', era: '2025-11-25' },
  'python-mcp': { label: 'Python `mcp` 2.3.0 `Client` (`mode="auto"`, its default)', era: '2026-07-28' },
  'python-mcp-legacy': { label: 'Python `mcp` 2.3.0 `Client`, `mode="legacy"`', era: '2025-11-25' },
  fastmcp: { label: 'Python FastMCP 4.2.3 `fastmcp.Client` (its defaults)', era: '2026-07-28' },
  go: { label: 'Go `github.com/modelcontextprotocol/go-sdk` 1.8.0 `mcp.Client` (its defaults)', era: '2026-07-28' },
  rust: { label: 'Rust `rmcp` 3.11.0 client (`serve`: `initialize`, its default)', era: '2025-11-25' },
  mastra: { label: 'Mastra `@mastra/mcp` 2.0.0 `MCPClient` (its defaults), through its tools', era: '2026-07-28' },
  langchain: {
    label: 'LangChain `@langchain/mcp-adapters` 1.1.4 `MultiServerMCPClient` (its defaults), through its tools',
    era: '2025-11-25',
  },
  'langchain-python': {
    label:
      'LangChain `langchain-mcp-adapters` 0.3.2 `MultiServerMCPClient` (Python `mcp` 1.30.0; `on_elicitation`, sampling and roots through `session_kwargs`), through its tools',
    era: '2025-11-25',
  },
  'inspector-cli': {
    label: 'MCP Inspector 2.12.0 CLI (`npx @modelcontextprotocol/inspector --cli`, its defaults), one process per call',
    era: '2025-11-25',
  },
  'inspector-cli-auto': {
    label: 'MCP Inspector 2.12.0 CLI, `--protocol-era auto`, one process per call',
    era: '2026-07-28',
  },
} satisfies Record<string, ClientRow>;

export type ClientId = keyof typeof CLIENTS;

export const SCENARIOS = {
  tasks: {
    title: 'Tasks extension',
    what: "whether the client declares the Tasks extension (on a 2026-07-28 request: `io.modelcontextprotocol/tasks` in its client capabilities; in a session: `capabilities.tasks` at `initialize`), without which a `taskSupport: 'required'` tool refuses it",
  },
  plain: { title: 'Plain call', what: 'a tool that asks nothing' },
  elicitation: { title: 'Form elicitation', what: 'the client accepts a form' },
  sampling: { title: 'Sampling', what: "the client's model answers `sampling/createMessage`" },
  roots: { title: 'Roots', what: 'the client lists its roots' },
  decline: { title: 'Decline', what: 'the client declines a form; the tool answers with what it was told' },
  stateOnly: {
    title: 'State-only result',
    what: 'what the client does with a state-only result (a question to someone else, answered after the first hold)',
  },
  past60s: {
    title: 'Wait past 60 s',
    what: "a question to someone else, answered after the TypeScript clients' request timeout, before the last leg",
  },
  past15min: {
    title: 'Wait past 15 min',
    what: "a question to someone else still unanswered when a 2026-07-28 client's retry loop reaches PENDING_RESULT_AT_LEG",
  },
  pendingResult: { title: 'Pending result', what: 'where the caller can read the handle of the pending result' },
  awaitAnswer: {
    title: '`await_answer`',
    what: 'calling `await_answer` with that handle while the approver answers',
  },
} satisfies Record<string, { title: string; what: string }>;

export type ScenarioId = keyof typeof SCENARIOS;

/** What each client does in each scenario, as the tests observe it. */
export const EXPECTED: Record<ClientId, Record<ScenarioId, string>> = {
  'typescript-2-pinned': {
    tasks: 'not declared',
    plain: 'result',
    elicitation: 'result',
    sampling: 'result',
    roots: 'result',
    decline: 'result',
    stateOnly: 'comes back with its requestState; result',
    past60s: 'result',
    past15min: 'pending result',
    pendingResult: 'isError result, handle in _meta and text',
    awaitAnswer: 'result',
  },
  'typescript-2-negotiating': {
    tasks: 'not declared',
    plain: 'result',
    elicitation: 'result',
    sampling: 'result',
    roots: 'result',
    decline: 'result',
    stateOnly: 'none sent; result',
    past60s: 'pending result',
    past15min: 'pending result',
    pendingResult: 'isError result, handle in _meta and text',
    awaitAnswer: 'result',
  },
  'typescript-1': {
    tasks: 'not declared',
    plain: 'result',
    elicitation: 'result',
    sampling: 'result',
    roots: 'result',
    decline: 'result',
    stateOnly: 'none sent; result',
    past60s: 'pending result',
    past15min: 'pending result',
    pendingResult: 'isError result, handle in _meta and text',
    awaitAnswer: 'result',
  },
  'python-mcp': {
    tasks: 'not declared',
    plain: 'result',
    elicitation: 'result',
    sampling: 'result',
    roots: 'result',
    decline: 'result',
    stateOnly: 'comes back with its requestState; result',
    past60s: 'result',
    past15min: 'pending result',
    pendingResult: 'isError result, handle in _meta and text',
    awaitAnswer: 'result',
  },
  'python-mcp-legacy': {
    tasks: 'not declared',
    plain: 'result',
    elicitation: 'result',
    sampling: 'result',
    roots: 'result',
    decline: 'result',
    stateOnly: 'none sent; result',
    past60s: 'pending result',
    past15min: 'pending result',
    pendingResult: 'isError result, handle in _meta and text',
    awaitAnswer: 'result',
  },
  fastmcp: {
    tasks: 'not declared',
    plain: 'result',
    elicitation: 'result',
    sampling: 'result',
    roots: 'result',
    decline: 'result',
    stateOnly: 'comes back with its requestState; result',
    past60s: 'result',
    past15min: 'throws ToolError with the pending text; question waiting',
    pendingResult: 'ToolError, handle only in its message',
    awaitAnswer: 'result',
  },
  go: {
    tasks: 'not declared',
    plain: 'result',
    elicitation: 'result',
    sampling: 'result',
    roots: 'result',
    decline: 'result',
    stateOnly: 'comes back with its requestState; result',
    past60s: 'result',
    past15min: 'pending result',
    pendingResult: 'isError result, handle in _meta and text',
    awaitAnswer: 'result',
  },
  rust: {
    tasks: 'not declared',
    plain: 'result',
    elicitation: 'result',
    sampling: 'result',
    roots: 'result',
    decline: 'result',
    stateOnly: 'none sent; result',
    past60s: 'pending result',
    past15min: 'pending result',
    pendingResult: 'isError result, handle in _meta and text',
    awaitAnswer: 'result',
  },
  mastra: {
    tasks: 'not declared',
    plain: 'result',
    elicitation: 'result',
    sampling: 'throws MissingRequiredClientCapabilityError -32021',
    roots: 'throws MissingRequiredClientCapabilityError -32021',
    decline: 'result',
    stateOnly: 'comes back with its requestState; result',
    past60s: 'result',
    past15min: 'throws MastraError with the pending text; question waiting',
    pendingResult: 'MastraError, handle only in its message',
    awaitAnswer: 'result',
  },
  langchain: {
    tasks: 'not declared',
    plain: 'result',
    elicitation: 'throws ToolException',
    sampling: 'throws ToolException',
    roots: 'throws ToolException',
    decline: 'throws ToolException',
    stateOnly: 'none sent; result',
    past60s: 'throws ToolException with the pending text; question answered',
    past15min: 'throws ToolException with the pending text; question waiting',
    pendingResult: 'ToolException, handle only in its message',
    awaitAnswer: 'result',
  },
  'langchain-python': {
    tasks: 'not declared',
    plain: 'result',
    elicitation: 'result',
    sampling: 'result',
    roots: 'result',
    decline: 'result',
    stateOnly: 'none sent; result',
    past60s: 'tool error with the pending text',
    past15min: 'tool error with the pending text',
    pendingResult: 'isError result, handle only in its text',
    awaitAnswer: 'result',
  },
  'inspector-cli': {
    tasks: "not declared (named in initialize's extensions)",
    plain: 'result',
    elicitation: 'throws exit 1 error',
    sampling: 'throws exit 1 error',
    roots: 'result',
    decline: 'throws exit 1 error',
    stateOnly: 'none sent; result',
    past60s: 'pending result',
    past15min: 'pending result',
    pendingResult: 'isError result, handle in _meta and text',
    awaitAnswer: 'result',
  },
  'inspector-cli-auto': {
    tasks: 'declared',
    plain: 'result',
    elicitation: 'throws exit 1 error',
    sampling: 'throws exit 1 error',
    roots: 'result',
    decline: 'throws exit 1 error',
    stateOnly: 'comes back with its requestState; result',
    past60s: 'result',
    past15min: 'pending result',
    pendingResult: 'isError result, handle in _meta and text',
    awaitAnswer: 'result',
  },
};
