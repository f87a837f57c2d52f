/**
 * Whether a legacy `tools/call` runs as a task (2025-11-25): the client asks for one with
 * `params.task`, within what the tool declares (the same `taskSupport` the 2026-07-28 wire reads).
 * Sessions of older revisions were offered no tasks: `params.task` means nothing to them, and a
 * tool whose task is required runs for them as an ordinary call, as it always did.
 */
import { z } from 'zod';
import type { ToolHandler } from '@durable-mcp/handlers';
import { TaskMetadataSchema, taskSupportViolation } from '../../../../lib/protocol/legacy-tasks';
import { parseParams } from '../../../../lib/protocol/parse-params';

const TaskAugmentationSchema = z.object({ task: TaskMetadataSchema.optional() }).passthrough();

/** The task a call asked for (its requested TTL, if any), or undefined when it runs as an ordinary call. */
export interface LegacyTaskRequest {
  ttlMs?: number;
}

/**
 * Decides the call: throws -32602 for a malformed `params.task` (with its path), -32601 for a task
 * on a tool that forbids one or none on a tool that requires one.
 */
export function legacyTaskRequest(
  tool: Pick<ToolHandler, 'taskSupport' | 'tool'> | undefined,
  params: unknown,
  sessionServesTasks: boolean,
): LegacyTaskRequest | undefined {
  if (!sessionServesTasks || !tool) return undefined;
  const { task } = parseParams(TaskAugmentationSchema, params);
  const support = tool.taskSupport ?? 'forbidden';
  if (task === undefined) {
    if (support === 'required') throw taskSupportViolation(tool.tool.name, 'required');
    return undefined;
  }
  if (support === 'forbidden') throw taskSupportViolation(tool.tool.name, 'forbidden');
  return task.ttl !== undefined ? { ttlMs: task.ttl } : {};
}
