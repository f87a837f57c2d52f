/**
 * What each variable means to whoever sets it, kept with its schema: `documented(schema, text)`
 * returns the schema itself and files the text under it, so a variable is declared once, and
 * docs/configuration.md is generated from the declarations (docs.ts).
 */
import { z } from 'zod';

export interface VariableDoc {
  /** What the variable sets, in the docs' words (Markdown, links relative to docs/). */
  description: string;
  /** The default as the docs say it, when the schema's own default does not say enough. */
  shownDefault?: string;
}

const variableDocs = z.registry<VariableDoc>();

export function documented<T extends z.ZodType>(schema: T, description: string, shownDefault?: string): T {
  variableDocs.add(schema, { description, ...(shownDefault !== undefined ? { shownDefault } : {}) });
  return schema;
}

/** The doc filed under a variable's schema, if any. */
export const docOf = (schema: z.ZodType): VariableDoc | undefined => variableDocs.get(schema);
