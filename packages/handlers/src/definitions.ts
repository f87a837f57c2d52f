/**
 * What a handler set is made of: tools, prompts and resources (static ones and URI templates).
 * `tools/call`, `prompts/get` and `resources/read` run as durable exchanges, so each of those
 * handlers may return an ask instead of its result and is re-executed with the answers.
 */
import type {
  CallToolResult,
  GetPromptResult,
  InputRequiredResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  Tool,
} from '@modelcontextprotocol/server';
import type { HandlerContext } from './context';

/** The wire description of a resource template (the server package's `ResourceTemplate` is its own class). */
export type ResourceTemplate = ResourceTemplateType;

type Outcome<R> = R | InputRequiredResult | Promise<R | InputRequiredResult>;

/** Suggests values for one argument (`completion/complete`). */
export type Completer = (value: string, context: Record<string, string>) => string[] | Promise<string[]>;

/** Where a handler's rounds run; see `roundActivity` on each declaration. */
export type RoundActivity = 'local' | 'regular';

/**
 * How a handler's rounds run, declared once per tool, prompt or resource and fixed for each
 * exchange when it starts:
 *
 * - `'local'` (the default): inside the workflow task, as a Temporal local activity, with no
 *   task-queue round trip and fewer history events. One execution may take `LOCAL_HANDLER_TIMEOUT_MS`
 *   (5 s): past it the exchange ends with `-32603`.
 * - `'regular'`: as a regular activity that heartbeats every second, for a handler that may take
 *   longer (a slow service, a model): one execution may take `HANDLER_TIMEOUT_MS` (90 s).
 *
 * Both keep the same guarantees: a round recorded once is never run again, a worker that dies
 * mid-round has the round re-run on another within about 10 s, and a handler that kills its worker
 * every time ends its exchange after `MAX_HANDLER_ATTEMPTS`.
 */
interface RoundsDeclaration {
  roundActivity?: RoundActivity;
  /**
   * How soon its exchanges' work is taken from a backlog: `1` (first) to `5` (last), Temporal's task
   * priority; undeclared, `3`, as every other handler's. It matters only when workers are behind
   * (docs/operators.md "Fairness"), and it comes before fairness: waiting work of priority 1 is
   * taken before any of priority 3, whoever's it is, and callers share fairly within one priority.
   * Declare it for the few tools a person waits on, not for a tool anyone can call in a loop.
   */
  priority?: TaskPriority;
}

/** A task priority: 1 (first) to 5 (last); 3 is the default. */
export type TaskPriority = 1 | 2 | 3 | 4 | 5;

/**
 * Whether a tool's calls may run as tasks (the Tasks extension, SEP-2663), as `tools/list`
 * advertises it in `execution.taskSupport`:
 *
 * - `'forbidden'` (the default): every call answers over MRTR, as it always did.
 * - `'optional'`: a call from a client that declared the extension on that request runs as a task
 *   (the client gets a `CreateTaskResult` and polls `tasks/get`); any other client gets the result
 *   over MRTR.
 * - `'required'`: as optional, but a client that did not declare the extension is refused with
 *   `-32021`.
 *
 * The handler itself is the same in both cases: it asks with `inputRequired(...)` and is
 * re-executed with the answers, whether they came in a retry or in `tasks/update`.
 */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/**
 * When a task-capable call becomes a task:
 *
 * - `'at-call'` (the default): at once; its first leg is answered with the task.
 * - `'after-input'`: its rounds that ask run synchronously over MRTR first, and the retry that
 *   answers them is answered with the task (SEP-2663: input needed to decide on the work is
 *   gathered before the task exists); the rounds after it run as the task.
 */
export type TaskBegins = 'at-call' | 'after-input';

/**
 * What a call gets when it still waits (on a person, usually) at the last result its client's retry
 * loop takes (about ten legs: eight minutes or so with the official clients; docs/protocol.md):
 *
 * - `'pending-result'` (the default): a complete tool result (marked `isError`, so nothing takes it
 *   for the tool's output) that says the call is pending, for whom and until when, with a handle:
 *   the built-in `await_answer` tool, or the same call again, returns the outcome when it exists.
 *   The exchange goes on waiting, and the answer is applied once, whoever comes back for it.
 * - `'error'`: for a tool whose caller must not go on without the answer: the exchange is
 *   cancelled (its question withdrawn, nothing the answer would do is done) and the call gets a
 *   tool error saying so, unless the answer made it first.
 */
export type LongWait = 'pending-result' | 'error';

/**
 * Whether a second call identical to one still running (same caller, tool and arguments) joins it
 * instead of starting another, so a person is never asked twice: `'reattach'` (the default) or
 * `'separate'`, for a tool whose identical calls are meant as separate requests. A call with an
 * idempotency key joins the call with the same key whatever this says.
 */
export type IdenticalCalls = 'reattach' | 'separate';

/** How a tool's calls wait: declared once per tool. */
export interface WaitDeclaration {
  longWait?: LongWait;
  identicalCalls?: IdenticalCalls;
}

export interface ToolHandler extends RoundsDeclaration, WaitDeclaration {
  /** The tool as `tools/list` describes it. */
  tool: Tool;
  taskSupport?: TaskSupport;
  taskBegins?: TaskBegins;
  run(args: Record<string, unknown>, ctx: HandlerContext): Outcome<CallToolResult>;
}

export interface PromptHandler extends RoundsDeclaration {
  prompt: Prompt;
  run(args: Record<string, string>, ctx: HandlerContext): Outcome<GetPromptResult>;
  /** Completers by argument name. */
  complete?: Record<string, Completer>;
}

export interface ResourceHandler extends RoundsDeclaration {
  resource: Resource;
  read(uri: string, ctx: HandlerContext): Outcome<ReadResourceResult>;
}

export interface ResourceTemplateHandler extends RoundsDeclaration {
  template: ResourceTemplate;
  read(uri: string, variables: Record<string, string>, ctx: HandlerContext): Outcome<ReadResourceResult>;
  /** Completers by template variable name. */
  complete?: Record<string, Completer>;
}

export interface HandlerSet {
  name: string;
  instructions?: string;
  tools: ReadonlyArray<ToolHandler>;
  prompts?: ReadonlyArray<PromptHandler>;
  resources?: ReadonlyArray<ResourceHandler>;
  resourceTemplates?: ReadonlyArray<ResourceTemplateHandler>;
}
