/**
 * The start-up check of a handler set, a built-in one or the module HANDLERS names, before a
 * process serves it:
 *
 * - its shape is a `HandlerSet`: each tool, prompt and resource described as the SDK's wire schemas
 *   describe it (a tool's name one MCP allows: tool-name.ts), with its functions, and only the keys the handler API knows (a misspelt
 *   `taskSuport` is refused, not silently ignored);
 * - no two tools or prompts share a name, no two resources a URI (the first would hide the rest);
 * - each tool's declarations hold: its inputSchema compiles and its `x-mcp-header` annotations are
 *   valid. These are the checks the API runs when it starts, run here too so that the worker, which
 *   serves no catalog, refuses the module the API would refuse.
 *
 * Every problem is reported, one a line, each naming the tool, prompt or resource at fault.
 */
import { PromptSchema, ResourceSchema, ResourceTemplateSchema, ToolSchema } from '@modelcontextprotocol/core';
import { z } from 'zod';
import type {
  HandlerSet,
  IdenticalCalls,
  LongWait,
  RoundActivity,
  TaskBegins,
  TaskPriority,
  TaskSupport,
} from '@durable-mcp/handlers';
import { InvalidParamHeaderDeclaration } from '../../lib/protocol/param-header-declarations';
import { createArgumentChecks, InvalidToolInputSchema } from '../../lib/handler-set/argument-checks';
import { toolParamHeaders } from '../../lib/handler-set/tool-param-headers';
import { toolNameProblem } from './tool-name';

export class InvalidHandlerSet extends Error {
  override readonly name = 'InvalidHandlerSet';
}

const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'must be a function');
const completers = z.record(z.string(), fn).optional();
const roundActivity = z.enum(['local', 'regular'] as const satisfies readonly RoundActivity[]).optional();
const priority = z
  .custom<TaskPriority>((value) => [1, 2, 3, 4, 5].includes(value as number), 'must be 1, 2, 3, 4 or 5')
  .optional();
/** What every handler declares of how its rounds run (definitions.ts `RoundsDeclaration`). */
const rounds = { roundActivity, priority };

/** The SDK's Tool, with a name MCP allows (its schema takes any string). */
const ToolWithMcpName = ToolSchema.superRefine((tool, ctx) => {
  const problem = typeof tool.name === 'string' ? toolNameProblem(tool.name) : undefined;
  if (problem) ctx.addIssue({ code: 'custom', path: ['name'], message: problem });
});

const ToolEntry = z.strictObject({
  tool: ToolWithMcpName,
  run: fn,
  ...rounds,
  taskSupport: z.enum(['forbidden', 'optional', 'required'] as const satisfies readonly TaskSupport[]).optional(),
  taskBegins: z.enum(['at-call', 'after-input'] as const satisfies readonly TaskBegins[]).optional(),
  longWait: z.enum(['pending-result', 'error'] as const satisfies readonly LongWait[]).optional(),
  identicalCalls: z.enum(['reattach', 'separate'] as const satisfies readonly IdenticalCalls[]).optional(),
});
const PromptEntry = z.strictObject({ prompt: PromptSchema, run: fn, complete: completers, ...rounds });
const ResourceEntry = z.strictObject({ resource: ResourceSchema, read: fn, ...rounds });
const TemplateEntry = z.strictObject({
  template: ResourceTemplateSchema,
  read: fn,
  complete: completers,
  ...rounds,
});

const HandlerSetShape = z.strictObject({
  name: z.string().min(1),
  instructions: z.string().optional(),
  tools: z.array(ToolEntry),
  prompts: z.array(PromptEntry).optional(),
  resources: z.array(ResourceEntry).optional(),
  resourceTemplates: z.array(TemplateEntry).optional(),
});

/** What each list of a set holds, and the key that names one of its entries. */
const ENTRIES = {
  tools: { noun: 'tool', key: (entry: unknown) => (entry as { tool?: { name?: unknown } })?.tool?.name },
  prompts: { noun: 'prompt', key: (entry: unknown) => (entry as { prompt?: { name?: unknown } })?.prompt?.name },
  resources: { noun: 'resource', key: (entry: unknown) => (entry as { resource?: { uri?: unknown } })?.resource?.uri },
  resourceTemplates: {
    noun: 'resource template',
    key: (entry: unknown) => (entry as { template?: { uriTemplate?: unknown } })?.template?.uriTemplate,
  },
} as const;
type ListName = keyof typeof ENTRIES;
const isListName = (key: unknown): key is ListName => typeof key === 'string' && key in ENTRIES;

/** `tool approve_refund` when the entry names itself, else `tools[2]`. */
function entryLabel(set: unknown, list: ListName, index: number): string {
  const key = ENTRIES[list].key((set as Record<string, unknown[] | undefined>)[list]?.[index]);
  return typeof key === 'string' && key !== '' ? `${ENTRIES[list].noun} ${key}` : `${list}[${index}]`;
}

function describeIssue(set: unknown, issue: z.core.$ZodIssue): string {
  const [list, index, ...rest] = issue.path;
  const inEntry = isListName(list) && typeof index === 'number';
  const subject = inEntry ? entryLabel(set, list, index) : undefined;
  const field = (inEntry ? rest : issue.path).map(String).join('.');
  return [subject, field, issue.message].filter(Boolean).join(': ');
}

function duplicates(set: HandlerSet): string[] {
  const problems: string[] = [];
  for (const list of Object.keys(ENTRIES) as ListName[]) {
    const seen = new Set<unknown>();
    for (const entry of set[list] ?? []) {
      const key = ENTRIES[list].key(entry);
      if (seen.has(key)) problems.push(`${ENTRIES[list].noun} ${String(key)}: declared more than once`);
      seen.add(key);
    }
  }
  return problems;
}

/**
 * The declarations the API checks when it starts (the first one at fault: each check stops there);
 * its errors already name the set and the tool.
 */
function declarationProblems(set: HandlerSet): string[] {
  try {
    toolParamHeaders(set);
    createArgumentChecks(set);
    return [];
  } catch (error) {
    if (error instanceof InvalidParamHeaderDeclaration || error instanceof InvalidToolInputSchema) {
      return [error.message];
    }
    throw error;
  }
}

/** `value` as the handler set it is, unchanged; throws `InvalidHandlerSet` listing every problem. */
export function checkHandlerSet(value: unknown): HandlerSet {
  const shape = HandlerSetShape.safeParse(value);
  const problems = shape.success
    ? [...duplicates(value as HandlerSet), ...declarationProblems(value as HandlerSet)]
    : shape.error.issues.map((issue) => describeIssue(value, issue));
  if (problems.length > 0) throw new InvalidHandlerSet(problems.join('\n  '));
  return value as HandlerSet;
}
