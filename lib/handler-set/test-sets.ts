/** For the service's own tests: a handler set of tools that differ only by their input schema. */
import { defineTool, type HandlerSet } from '@durable-mcp/handlers';

/** A handler set `test` of tools `t0`, `t1`, ... with these `inputSchema`s (each an object schema). */
export function setOfToolSchemas(...inputSchemas: Array<Record<string, unknown>>): HandlerSet {
  return {
    name: 'test',
    tools: inputSchemas.map((inputSchema, i) =>
      defineTool({
        tool: { name: `t${i}`, inputSchema: { type: 'object', ...inputSchema } },
        run: () => ({ content: [] }),
      }),
    ),
  };
}
