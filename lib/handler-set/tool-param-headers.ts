/**
 * The `Mcp-Param-*` headers each tool of a handler set declares (`x-mcp-header` in its
 * `inputSchema`), by tool name: what the 2026-07-28 API checks every `tools/call` against. Built
 * when the API starts, so a tool with an invalid annotation stops the start with its name and the
 * reason instead of being served to clients that must drop it.
 */
import { InvalidParamHeaderDeclaration, paramHeadersOf, type ParamHeader } from '../protocol/param-header-declarations';
import type { HandlerSet } from '@durable-mcp/handlers';

export type ToolParamHeaders = ReadonlyMap<string, readonly ParamHeader[]>;

export function toolParamHeaders(set: HandlerSet): ToolParamHeaders {
  const table = new Map<string, readonly ParamHeader[]>();
  for (const { tool } of set.tools) {
    try {
      const declared = paramHeadersOf(tool.inputSchema);
      if (declared.length > 0) table.set(tool.name, declared);
    } catch (error) {
      if (!(error instanceof InvalidParamHeaderDeclaration)) throw error;
      throw new InvalidParamHeaderDeclaration(`handler set ${set.name}, tool ${tool.name}: ${error.message}`);
    }
  }
  return table;
}
