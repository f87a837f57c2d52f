/**
 * Tool-name patterns, as operators write them in declarations (an upstream's policies, the
 * quotas): `*` is any run of characters and `?` one; anything else matches itself. One schema and
 * one matcher, so a pattern means the same wherever it is declared.
 */
import { z } from 'zod';

/** A list of 1 to 100 patterns, each 1 to 128 of A-Z, a-z, 0-9, `_ . / -` and the wildcards. */
export const toolPatterns = z
  .array(z.string().regex(/^[A-Za-z0-9_.*?/-]{1,128}$/, 'a tool name, where * is any run of characters and ? one'))
  .min(1)
  .max(100);

/** The pattern as a regular expression matching whole tool names. */
export function toolPattern(pattern: string): RegExp {
  const source = pattern
    .replace(/[.+^${}()|[\]\\/-]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`);
}
