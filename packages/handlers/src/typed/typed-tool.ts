/**
 * A tool declared with Standard Schemas (zod 4 and the like): its arguments, its structured result,
 * its asks and its state are typed from them, `tools/list` shows their JSON Schemas as the
 * official SDK would list them, and each round checks what it is given against them. It becomes
 * an ordinary `ToolHandler`, so the service runs it as it runs any other.
 */
import type { CallToolResult, InputRequiredResult, Tool } from '@modelcontextprotocol/server';
import type { AskedResult } from './asked';
import type { HandlerContext } from '../context';
import type {
  IdenticalCalls,
  LongWait,
  RoundActivity,
  TaskBegins,
  TaskPriority,
  TaskSupport,
  ToolHandler,
} from '../definitions';
import { answersOf, type Answers, type Asks } from './asks';
import { check, describeIssues, jsonSchemaOf, type Infer, type StandardSchemaWithJSON } from './schema';

/**
 * A round's outcome: its result, or an ask under declared keys only (`Keys`: the `asks`; NoInfer,
 * so the keys a run asks under are checked against the declaration, never added to it).
 */
type Outcome<R, Keys extends string> = R | AskedResult<Keys> | Promise<R | AskedResult<Keys>>;

/** What a typed tool's handler is given: its answers typed by its asks, and its state by its schema. */
export interface TypedContext<A extends Asks, State> extends Omit<HandlerContext, 'inputResponses'> {
  /** The answers to the previous ask: read each with `inputResponse(ctx.inputResponses, key)`. */
  inputResponses: Answers<A>;
  /** The state returned with the previous ask (`keepState`), checked against the `state` schema; absent on round 1. */
  state: State | undefined;
  /** The `requestState` to return with an ask, so the next round's `ctx.state` is `value`. */
  keepState(value: State): string;
}

/** A tool result whose `structuredContent` is the `outputSchema`'s type, when there is one. */
export type TypedResult<Out> = [Out] extends [undefined]
  ? CallToolResult
  : Omit<CallToolResult, 'structuredContent'> & { structuredContent: Out };

export interface TypedToolHandler<
  In extends StandardSchemaWithJSON,
  Out extends StandardSchemaWithJSON | undefined,
  A extends Asks,
  S extends StandardSchemaWithJSON | undefined,
> {
  tool: Omit<Tool, 'inputSchema' | 'outputSchema'> & { inputSchema: In; outputSchema?: Out };
  asks?: A;
  /** The schema of the state a round keeps for the next (`ctx.keepState`). */
  state?: S;
  taskSupport?: TaskSupport;
  taskBegins?: TaskBegins;
  roundActivity?: RoundActivity;
  priority?: TaskPriority;
  longWait?: LongWait;
  identicalCalls?: IdenticalCalls;
  run(
    args: Infer<In>,
    ctx: TypedContext<A, S extends StandardSchemaWithJSON ? Infer<S> : never>,
  ): Outcome<TypedResult<Out extends StandardSchemaWithJSON ? Infer<Out> : undefined>, NoInfer<keyof A & string>>;
}

/** The state a round kept, checked against its schema (it is the handler's own, so a mismatch is a handler fault). */
function stateOf(schema: StandardSchemaWithJSON | undefined, requestState: string | undefined): unknown {
  if (!schema || requestState === undefined) return undefined;
  const checked = check(schema, JSON.parse(requestState));
  if (!checked.ok)
    throw new Error(`the kept state does not fit the tool's state schema (${describeIssues(checked.issues, 'state')})`);
  return checked.value;
}

export function typedTool<
  In extends StandardSchemaWithJSON,
  Out extends StandardSchemaWithJSON | undefined,
  A extends Asks,
  S extends StandardSchemaWithJSON | undefined,
>(handler: TypedToolHandler<In, Out, A, S>): ToolHandler {
  const { tool, asks, state, run, ...declaration } = handler;
  const { inputSchema, outputSchema, ...described } = tool;
  return {
    ...declaration,
    tool: {
      ...described,
      inputSchema: jsonSchemaOf(inputSchema, 'input'),
      ...(outputSchema ? { outputSchema: jsonSchemaOf(outputSchema, 'output') } : {}),
    } as Tool,
    async run(raw, ctx) {
      // The service checked the listed JSON Schema already; what only the schema library knows
      // (refinements, transforms) is checked here, refused as the service refuses arguments: a tool error.
      const args = check(inputSchema, raw);
      if (!args.ok)
        throw new Error(`Invalid arguments for tool ${tool.name}:\n${describeIssues(args.issues, 'arguments')}`);
      const typed = {
        ...ctx,
        inputResponses: answersOf(ctx.inputResponses, asks ?? ({} as A)),
        state: stateOf(state, ctx.requestState),
        keepState: (value: unknown) => JSON.stringify(value),
      } as unknown as TypedContext<A, never>;
      const result = await run(args.value, typed);
      if (outputSchema && 'content' in result && !result.isError) {
        const structured = check(outputSchema, (result as CallToolResult).structuredContent);
        if (!structured.ok)
          throw new Error(
            `the result does not fit the tool's outputSchema (${describeIssues(structured.issues, 'structuredContent')})`,
          );
      }
      return result as CallToolResult | InputRequiredResult;
    },
  };
}
