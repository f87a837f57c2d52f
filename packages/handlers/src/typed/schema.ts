/**
 * Standard Schemas (zod 4, ArkType, Valibot's `toStandardJsonSchema`: anything that implements
 * both `~standard.validate` and `~standard.jsonSchema`) as a handler declares its arguments,
 * result, answers and state with them: the JSON Schema a tool lists (converted as the official SDK
 * converts it, draft 2020-12, an object at the root) and a synchronous check of a value against it.
 */
import type { StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';

export type { StandardSchemaV1, StandardSchemaWithJSON };

/** What a declaration infers a handler's values from. */
export type Infer<S extends StandardSchemaWithJSON> = StandardSchemaV1.InferOutput<S>;

/** Whether `value` is a Standard Schema with JSON Schema conversion (rather than a JSON Schema literal). */
export function isStandardSchema(value: unknown): value is StandardSchemaWithJSON {
  const standard = (value as { '~standard'?: { validate?: unknown; jsonSchema?: unknown } } | null)?.['~standard'];
  return typeof standard?.validate === 'function' && typeof standard.jsonSchema === 'object';
}

/**
 * The JSON Schema of `schema`'s input (what a client sends) or output (what a handler returns), as
 * `tools/list` shows it: an object schema, since MCP's argument, result and form schemas are.
 */
export function jsonSchemaOf(
  schema: StandardSchemaWithJSON,
  io: 'input' | 'output',
): Record<string, unknown> & { type: 'object' } {
  const converted = schema['~standard'].jsonSchema[io]({ target: 'draft-2020-12' });
  if (converted.type !== undefined && converted.type !== 'object')
    throw new TypeError(
      `an MCP schema describes an object (this one's type is ${JSON.stringify(converted.type)}): wrap it in z.object({...})`,
    );
  return { type: 'object', ...converted } as Record<string, unknown> & { type: 'object' };
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: ReadonlyArray<StandardSchemaV1.Issue> };

/** Checks `value` against `schema`; a schema whose check is asynchronous cannot run in a round. */
export function check<S extends StandardSchemaWithJSON>(schema: S, value: unknown): Checked<Infer<S>> {
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise)
    throw new TypeError('an asynchronous schema cannot check a round: use a synchronous one');
  return result.issues === undefined
    ? { ok: true, value: result.value as Infer<S> }
    : { ok: false, issues: result.issues };
}

/** `path: message` of a schema's first issue, for an error a caller can act on. */
export function describeIssues(issues: ReadonlyArray<StandardSchemaV1.Issue>, root: string): string {
  const first = issues[0];
  if (!first) return `${root}: invalid`;
  const path = (first.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment));
  return `${[root, ...path].join('.')}: ${first.message}`;
}
