/**
 * A variable the environment gets wrong, said in plain words: one that is missing is named with
 * what it is for (the first clause of its documentation, variables/), not the schema's "expected
 * string, received undefined"; one that is malformed keeps its schema's message, which says what
 * it must be.
 */
import type { z } from 'zod';
import { docOf } from './variables/documented';

/** The first clause of a variable's documentation (up to its first `;`), without Markdown. */
export function purposeOf(description: string): string {
  let depth = 0;
  let end = description.length;
  for (let i = 0; i < description.length; i++) {
    const char = description[i];
    if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    else if (char === ';' && depth === 0) {
      end = i;
      break;
    }
  }
  return description
    .slice(0, end)
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim();
}

/** The line for a variable the schema refused: missing (with what it is for) or malformed. */
export function variableProblem(
  variable: string,
  value: string | undefined,
  schemaMessage: string,
  schema: z.ZodType | undefined,
): string {
  if (value !== undefined) return `${variable} is malformed: ${schemaMessage}`;
  const doc = schema ? docOf(schema) : undefined;
  return doc ? `${variable} is not set: ${purposeOf(doc.description)}` : `${variable} is not set: ${schemaMessage}`;
}

/** What a configuration with variables missing ends with: where to read about them. */
export const MISSING_HINT =
  'Set them in the environment (docs/configuration.md says what each is); `durable-mcp dev` sets them for local development.';
