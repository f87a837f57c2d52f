/**
 * The arguments check every exchange request passes before anything is started or written, on
 * both protocol eras: `tools/call` arguments against the tool's `inputSchema` (servers MUST
 * validate tool inputs, 2025-11-25 and 2026-07-28 server/tools), `prompts/get` against the
 * prompt's `required` arguments. Retries are checked too: they carry the original arguments, and
 * a compiled validator makes the check a few microseconds.
 *
 * Each tool's schema is compiled once, when the API starts, with the SDK's validator (its dialect
 * follows `$schema`: 2020-12 by default, draft-07 when named). A schema that does not compile is
 * the handler author's mistake and stops the start, naming the tool. A tool the set lists later (an
 * upstream's, lib/gateway: its listing refreshed) or lists anew (a changed schema) is compiled at its
 * first call; the gateway serves only upstream tools whose schema compiles.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { OriginalRequest } from '../exchange/types';
import { type HandlerSet } from '@durable-mcp/handlers';
import { findPrompt, findTool } from './lookup';
import { argumentProblems, invalidArgumentsResult } from '../protocol/argument-problems';
import { invalidParams } from '../protocol/error-catalog';

export class InvalidToolInputSchema extends Error {
  override readonly name = 'InvalidToolInputSchema';
}

type JsonSchemaType = Parameters<AjvJsonSchemaValidator['getValidator']>[0];
type Validate = (input: unknown) => { valid: boolean; errorMessage?: string };

export interface ArgumentChecks {
  /**
   * For a request whose arguments fail: the complete result that answers it instead of its
   * handler (a `tools/call`), or a thrown -32602 naming the missing argument (a `prompts/get`).
   * Undefined when the request may run.
   */
  refusal(request: OriginalRequest): Record<string, unknown> | undefined;
}

export function createArgumentChecks(set: HandlerSet): ArgumentChecks {
  const engine = new AjvJsonSchemaValidator();
  // By name, with the description compiled: a set may list a tool anew under the same name.
  const validators = new Map<string, { tool: object; validate: Validate }>();
  const compiled = (tool: HandlerSet['tools'][number]['tool']) => {
    const held = validators.get(tool.name);
    if (held?.tool === tool) return held.validate;
    const validate = engine.getValidator(tool.inputSchema as JsonSchemaType);
    validators.set(tool.name, { tool, validate });
    return validate;
  };
  for (const { tool } of set.tools) {
    try {
      compiled(tool);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new InvalidToolInputSchema(
        `handler set ${set.name}, tool ${tool.name}: inputSchema does not compile: ${reason}`,
      );
    }
  }

  return {
    refusal(request) {
      if (request.method === 'tools/call') {
        const tool = findTool(set, request.target)?.tool;
        const verdict = tool && compiled(tool)(request.params.arguments ?? {});
        if (!verdict || verdict.valid) return undefined;
        return invalidArgumentsResult(request.target, argumentProblems(verdict.errorMessage ?? 'data is invalid'));
      }
      if (request.method === 'prompts/get') {
        const given = (request.params.arguments ?? {}) as Record<string, unknown>;
        for (const argument of findPrompt(set, request.target)?.prompt.arguments ?? []) {
          if (argument.required && typeof given[argument.name] !== 'string') {
            throw invalidParams(`Missing required argument: ${argument.name}`, {
              path: `params.arguments.${argument.name}`,
            });
          }
        }
      }
      return undefined;
    },
  };
}
