/**
 * One property of an elicitation's `requestedSchema`, read against the SDK's own zod schemas of
 * MCP's restricted form (`@modelcontextprotocol/core`), the one source of its shapes, into a
 * RequestedField. The SDK's schemas strip keywords they do not know; a handler that writes
 * `pattern` or `exclusiveMinimum` expects it enforced, and nothing here would, so any keyword
 * outside the form (annotations aside) is a problem rather than silently dropped.
 */
import {
  BooleanSchemaSchema,
  LegacyTitledEnumSchemaSchema,
  NumberSchemaSchema,
  StringSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
} from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { childPath } from '../protocol/json-budget';
import type { AnswerProblem } from './answer-problem';
import type { FieldOption, RequestedField } from './requested-field';

/** Keywords that only describe, never constrain (the SDK's own list): allowed anywhere. */
const ANNOTATIONS = new Set(['$comment', 'deprecated', 'description', 'examples', 'readOnly', 'title', 'writeOnly']);
export const isAnnotation = (key: string) => ANNOTATIONS.has(key) || key.startsWith('x-');

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keywords of `node` that `schema` does not know, each as a problem at its path. */
export function unknownKeywords(
  node: unknown,
  schema: z.ZodObject,
  path: string,
  also: string[] = [],
): AnswerProblem[] {
  if (!isObject(node)) return [];
  return Object.keys(node)
    .filter((key) => !(key in schema.shape) && !isAnnotation(key) && !also.includes(key))
    .map((key) => ({ path: childPath(path, key), message: "is not part of MCP's restricted elicitation schema" }));
}

/** The zod issues of a failed parse, at their paths under `path`. */
export function issueProblems(error: z.ZodError, path: string): AnswerProblem[] {
  return error.issues.map((issue) => ({
    path: issue.path.reduce<string>((parent, key) => childPath(parent, key as string | number), path),
    message: issue.message,
  }));
}

const OPTION_SHAPES = {
  oneOf: TitledSingleSelectEnumSchemaSchema.shape.oneOf.element,
  anyOf: TitledMultiSelectEnumSchemaSchema.shape.items.shape.anyOf.element,
};

/** Which of the SDK's schemas a property means, by its `type` and the keywords that tell enums apart. */
function schemaOf(node: Record<string, unknown>): z.ZodObject | undefined {
  switch (node.type) {
    case 'string':
      if ('oneOf' in node) return TitledSingleSelectEnumSchemaSchema;
      return 'enum' in node ? LegacyTitledEnumSchemaSchema : StringSchemaSchema;
    case 'number':
    case 'integer':
      return NumberSchemaSchema;
    case 'boolean':
      return BooleanSchemaSchema;
    case 'array':
      return isObject(node.items) && 'anyOf' in node.items
        ? TitledMultiSelectEnumSchemaSchema
        : UntitledMultiSelectEnumSchemaSchema;
    default:
      return undefined;
  }
}

/** Keywords of the nested parts (`items`, each `{const, title}`) the SDK's schemas would strip. */
function nestedUnknownKeywords(node: Record<string, unknown>, path: string): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  const options = (list: unknown, shape: z.ZodObject, listPath: string) => {
    if (Array.isArray(list))
      list.forEach((o, i) => problems.push(...unknownKeywords(o, shape, childPath(listPath, i))));
  };
  if (node.type === 'string') options(node.oneOf, OPTION_SHAPES.oneOf, childPath(path, 'oneOf'));
  if (node.type === 'array' && isObject(node.items)) {
    const itemsPath = childPath(path, 'items');
    if ('anyOf' in node.items) {
      // `type: string` restates what every option already is; writers add it, and it constrains nothing more.
      const restated = node.items.type === 'string' ? ['type'] : [];
      problems.push(...unknownKeywords(node.items, TitledMultiSelectEnumSchemaSchema.shape.items, itemsPath, restated));
      options(node.items.anyOf, OPTION_SHAPES.anyOf, childPath(itemsPath, 'anyOf'));
    } else {
      problems.push(...unknownKeywords(node.items, UntitledMultiSelectEnumSchemaSchema.shape.items, itemsPath));
    }
  }
  return problems;
}

/** The options of an enum property, titled by `oneOf`/`anyOf`, legacy `enumNames`, or their own values. */
function optionsOf(node: Record<string, unknown>): FieldOption[] {
  const titled = (node.oneOf ?? (isObject(node.items) ? node.items.anyOf : undefined)) as
    Array<{ const: string; title: string }> | undefined;
  if (titled) return titled.map((option) => ({ value: option.const, title: option.title }));
  const values = (node.enum ?? (isObject(node.items) ? node.items.enum : undefined)) as string[];
  const names = node.enumNames as string[] | undefined;
  return values.map((value, index) => ({ value, title: names?.[index] ?? value }));
}

/** The field a property that passed its SDK schema describes. */
function fieldOf(name: string, node: Record<string, unknown>, required: boolean): RequestedField {
  const base = {
    name,
    required,
    title: node.title as string | undefined,
    description: node.description as string | undefined,
  };
  const pick = (...keys: string[]) =>
    Object.fromEntries(keys.filter((key) => key in node).map((key) => [key, node[key]]));
  if (node.type === 'number' || node.type === 'integer') {
    return { ...base, kind: 'number', integer: node.type === 'integer', ...pick('minimum', 'maximum', 'default') };
  }
  if (node.type === 'boolean') return { ...base, kind: 'boolean', ...pick('default') };
  if (node.type === 'array') {
    return { ...base, kind: 'choices', options: optionsOf(node), ...pick('minItems', 'maxItems', 'default') };
  }
  if ('enum' in node || 'oneOf' in node)
    return { ...base, kind: 'choice', options: optionsOf(node), ...pick('default') };
  return { ...base, kind: 'text', ...pick('format', 'minLength', 'maxLength', 'default') };
}

/** One property read: its field when it is within the restricted form, and what is not. */
export function readProperty(
  name: string,
  node: unknown,
  required: boolean,
  path: string,
): { field?: RequestedField; problems: AnswerProblem[] } {
  const schema = isObject(node) ? schemaOf(node) : undefined;
  if (!isObject(node) || !schema) {
    const message = 'must be a string, number, integer, boolean or array (multi-select) property';
    return { problems: [{ path: isObject(node) ? childPath(path, 'type') : path, message }] };
  }
  const parsed = schema.safeParse(node);
  if (!parsed.success) return { problems: issueProblems(parsed.error, path) };
  const problems = [...unknownKeywords(node, schema, path), ...nestedUnknownKeywords(node, path)];
  if (Array.isArray(node.enumNames) && node.enumNames.length !== (node.enum as string[]).length) {
    problems.push({ path: childPath(path, 'enumNames'), message: 'must name each value of enum, in order' });
  }
  return { field: fieldOf(name, node, required), problems };
}
