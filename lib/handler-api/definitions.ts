import type { CallToolResult, ClientCapabilities, InputRequiredResult, Tool } from '@modelcontextprotocol/server';
import type { Logger } from '../log';

export interface HandlerContext {
  exchangeId: string;
  /** 1 on the first execution, then one more per answered ask. */
  round: number;
  /** The answers to the previous ask, raw, keyed as asked; empty on round 1. */
  inputResponses: Record<string, unknown>;
  /** The state this handler returned with its previous ask, verified and unsealed. */
  requestState?: string;
  clientCapabilities: ClientCapabilities;
  log: Logger;
}

export type ToolOutcome = CallToolResult | InputRequiredResult;

export interface ToolHandler {
  /** The tool as `tools/list` describes it. */
  tool: Tool;
  run(args: Record<string, unknown>, ctx: HandlerContext): Promise<ToolOutcome> | ToolOutcome;
}

export interface HandlerSet {
  name: string;
  tools: ReadonlyArray<ToolHandler>;
}

export function defineTool(handler: ToolHandler): ToolHandler {
  return handler;
}

export function findTool(set: HandlerSet, name: string): ToolHandler | undefined {
  return set.tools.find((handler) => handler.tool.name === name);
}
