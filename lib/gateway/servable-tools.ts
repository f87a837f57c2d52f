/**
 * The tools of an upstream's listing the service can serve: each must pass the checks the API
 * runs on its handlers (the SDK's tool schema, an `inputSchema` that compiles, valid
 * `x-mcp-header` declarations). One that does not is left out with a warning naming why, instead
 * of stopping the service or refusing every call at the API: an upstream's listing is not ours to
 * fix.
 */
import { ToolSchema } from '@modelcontextprotocol/core';
import type { Tool } from '@modelcontextprotocol/server';
import type { Logger } from '../log';
import { createArgumentChecks } from '../handler-set/argument-checks';
import { toolParamHeaders } from '../handler-set/tool-param-headers';
import type { Upstream } from '../upstreams/upstream-declaration';
import { listedTool } from './upstream-tool';

/** Why the service cannot serve `tool` as `upstream` lists it, or undefined when it can. */
export function unservableReason(upstream: Upstream, tool: Tool): string | undefined {
  const listed = listedTool(upstream, tool);
  if (!ToolSchema.safeParse(listed).success) return 'its description is not a valid tool';
  const set = { name: upstream.name, tools: [{ tool: listed, run: () => ({ content: [] }) }] };
  try {
    createArgumentChecks(set);
    toolParamHeaders(set);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function servable(tools: Tool[], upstream: Upstream, log: Pick<Logger, 'warn'>): Tool[] {
  return tools.filter((tool) => {
    const reason = unservableReason(upstream, tool);
    if (reason) log.warn({ upstream: upstream.name, tool: tool.name, reason }, 'an upstream tool is not served');
    return reason === undefined;
  });
}
