/**
 * One execution of a tool registered with `registerTool`, as the SDK's `tools/call` runs it: the
 * arguments parsed by the tool's schema, the callback called as `(args, ctx)` (or `(ctx)` when the
 * tool has no `inputSchema`), `structuredContent` checked against its `outputSchema`, and anything
 * thrown turned into an `isError` result. An ask is returned unchanged: durable-mcp checks it
 * against the client's capabilities, seals its `requestState` and waits for the answers.
 */
import {
  isInputRequiredResult,
  type CallToolResult,
  type InputRequiredResult,
  type RegisteredTool,
  type ServerContext,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import type { HandlerContext } from '../context';
import { failedAnswer, toolError } from './errors';
import { checkStructuredContent, parseArguments } from './schemas';

type WithArgs = (
  args: unknown,
  ctx: ServerContext,
) => CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult>;
type CtxOnly = (
  ctx: ServerContext,
) => CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult>;

export async function callTool(
  name: string,
  registered: RegisteredTool,
  args: Record<string, unknown>,
  h: HandlerContext,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  try {
    const failed = failedAnswer(h.inputResponses);
    if (failed) throw failed;
    // `handler` is the callback as registered (or as swapped by `update({ callback })`).
    const inputSchema: StandardSchemaWithJSON | undefined = registered.inputSchema;
    const result = inputSchema
      ? await (registered.handler as WithArgs)(await parseArguments(name, inputSchema, args), ctx)
      : await (registered.handler as CtxOnly)(ctx);
    if (isInputRequiredResult(result)) return result;
    if (registered.outputSchema && !result.isError) {
      await checkStructuredContent(name, registered.outputSchema, result.structuredContent);
    }
    return result.content === undefined ? { ...result, content: [] } : result;
  } catch (error) {
    return toolError(error);
  }
}
