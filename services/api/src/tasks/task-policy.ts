/**
 * Whether a `tools/call` runs as a task (the Tasks extension, SEP-2663): the tool's declaration
 * and what this request's client declared decide it, nothing else (task creation is
 * server-directed; a 2025-11-25 `task` param in the request is ignored).
 */
import type { ToolHandler } from '@durable-mcp/handlers';
import { declaresTasks, tasksNotDeclared } from '../../../../lib/protocol/tasks';

/**
 * When the call becomes a task, or undefined when it answers over MRTR. Throws -32021 for a tool
 * that requires a task, called by a client that did not declare the extension on this request.
 */
export function taskBeginsFor(
  tool: Pick<ToolHandler, 'taskSupport' | 'taskBegins' | 'tool'> | undefined,
  clientCapabilities: Record<string, unknown>,
): 'at-call' | 'after-input' | undefined {
  const support = tool?.taskSupport ?? 'forbidden';
  if (support === 'forbidden') return undefined;
  if (!declaresTasks(clientCapabilities)) {
    if (support === 'required') throw tasksNotDeclared(`the tool ${tool!.tool.name}`);
    return undefined;
  }
  return tool!.taskBegins ?? 'at-call';
}
