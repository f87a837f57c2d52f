/** Request params checked against a schema, refused with the path of the first bad field. */
import type { z } from 'zod';
import { invalidParams } from './error-catalog';

/** Parses request params with a schema; a failure names the offending field's path (-32602). */
export function parseParams<T>(schema: z.ZodType<T>, params: unknown): T {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = ['params', ...issue.path.map(String)].join('.');
  throw invalidParams(`Invalid params: ${path}: ${issue.message}`, { path });
}
