/**
 * An elicitation's `requestedSchema` read as MCP's restricted form: an object of flat primitive
 * properties, each read against the SDK's schemas (property-schema.ts) and held to being
 * answerable (field-constraints.ts). `checkRequestedSchema` says what falls outside it, so the
 * service can refuse such a question when it is asked rather than show a form it cannot check;
 * `readRequestedSchema` gives the fields the answer check, the form's parser and the page share.
 * Problems are at paths under `requestedSchema`.
 */
import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/core';
import { z } from 'zod';
import { childPath } from '../protocol/json-budget';
import type { AnswerProblem } from './answer-problem';
import { checkFieldConstraints } from './field-constraints';
import { isAnnotation, issueProblems, readProperty, unknownKeywords } from './property-schema';
import type { RequestedField } from './requested-field';

const ROOT = 'requestedSchema';
const RequestedSchemaSchema = ElicitRequestFormParamsSchema.shape.requestedSchema;
// The root as the SDK has it, but with each property left to readProperty, which names what is wrong
// with it instead of the SDK union's every failed alternative.
const RootSchema = RequestedSchemaSchema.extend({ properties: z.record(z.string(), z.unknown()) });

/** Root keywords besides the SDK's own (`type`, `properties`, `required`) that add no constraint we miss. */
function allowedAtRoot(key: string, value: unknown): boolean {
  // `additionalProperties: false` says what the answer check does anyway: content has no other keys.
  return key === '$schema' || isAnnotation(key) || (key === 'additionalProperties' && value === false);
}

export interface ReadSchema {
  /** The properties that are within the restricted form, in the schema's order. */
  fields: RequestedField[];
  /** What is not; empty for a schema a question may carry. */
  problems: AnswerProblem[];
}

/** The fields of `schema`, and what in it is outside MCP's restricted elicitation schema. */
export function readRequestedSchema(schema: unknown): ReadSchema {
  const root = RootSchema.safeParse(schema);
  if (!root.success) return { fields: [], problems: issueProblems(root.error, ROOT) };
  const node = schema as Record<string, unknown>;
  const problems = Object.keys(node)
    .filter((key) => !(key in RequestedSchemaSchema.shape) && !allowedAtRoot(key, node[key]))
    .flatMap((key) => unknownKeywords({ [key]: node[key] }, RequestedSchemaSchema, ROOT));
  const required = root.data.required ?? [];
  required.forEach((name, index) => {
    if (!Object.hasOwn(root.data.properties, name)) {
      problems.push({ path: childPath(childPath(ROOT, 'required'), index), message: `names no property (${name})` });
    }
  });
  const fields: RequestedField[] = [];
  for (const [name, property] of Object.entries(root.data.properties)) {
    const path = childPath(childPath(ROOT, 'properties'), name);
    const read = readProperty(name, property, required.includes(name), path);
    problems.push(...read.problems);
    if (!read.field) continue;
    const unanswerable = checkFieldConstraints(read.field, path);
    problems.push(...unanswerable);
    if (unanswerable.length === 0) fields.push(read.field);
  }
  return { fields, problems };
}

/** What in a handler's `requestedSchema` is outside MCP's restricted form; empty when nothing is. */
export function checkRequestedSchema(schema: unknown): AnswerProblem[] {
  return readRequestedSchema(schema).problems;
}
