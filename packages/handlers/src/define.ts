/** The functions a handler set is written with: each gives back its handler, typed (definitions.ts). */
import type { PromptHandler, ResourceHandler, ResourceTemplateHandler, ToolHandler } from './definitions';
import type { Asks } from './typed/asks';
import { isStandardSchema, type StandardSchemaWithJSON } from './typed/schema';
import { typedTool, type TypedToolHandler } from './typed/typed-tool';

/**
 * A tool. Its `inputSchema` (and `outputSchema`) is either a JSON Schema literal, with `args` a
 * plain record, or a Standard Schema (zod 4, say), from which `args`, the structured result, the
 * answers to its declared `asks` and its `state` are typed (typed/typed-tool.ts).
 */
export function defineTool(handler: ToolHandler): ToolHandler;
export function defineTool<
  In extends StandardSchemaWithJSON,
  Out extends StandardSchemaWithJSON | undefined = undefined,
  A extends Asks = Record<never, never>,
  S extends StandardSchemaWithJSON | undefined = undefined,
>(handler: TypedToolHandler<In, Out, A, S>): ToolHandler;
export function defineTool(handler: ToolHandler | AnyTypedTool): ToolHandler {
  return isStandardSchema(handler.tool.inputSchema) ? typedTool(handler as AnyTypedTool) : (handler as ToolHandler);
}
type AnyTypedTool = TypedToolHandler<
  StandardSchemaWithJSON,
  StandardSchemaWithJSON | undefined,
  Asks,
  StandardSchemaWithJSON | undefined
>;
export const definePrompt = (handler: PromptHandler): PromptHandler => handler;
export const defineResource = (handler: ResourceHandler): ResourceHandler => handler;
export const defineResourceTemplate = (handler: ResourceTemplateHandler): ResourceTemplateHandler => handler;
