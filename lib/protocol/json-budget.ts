/**
 * Checks one parsed JSON-RPC message before anything acts on it: no nesting deeper than the
 * configured depth (deep values overflow the stack of every recursive walk after this one), and no
 * string, as a value or a key, that Postgres cannot store in `jsonb` (a NUL character, or a UTF-16
 * surrogate without its pair, which no UTF-8 text can hold). Both would otherwise fail later, over
 * and over, where the client can no longer be told. Iterative, so a hostile depth costs nothing.
 */
import type { RpcError } from './rpc-error';
import { invalidParams } from './error-catalog';

const NUL = /\u0000/;
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored, if it cannot. */
export function unstorableReason(text: string): string | undefined {
  if (NUL.test(text)) return 'contains a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate';
  return undefined;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `params.arguments.name`, `params.items[2]`, `params["odd key"]`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent ? `${parent}.${key}` : key;
}

/** The first problem in `value`, as the -32602 error that names its path; undefined when there is none. */
export function findJsonBudgetViolation(value: unknown, maxDepth: number, rootPath = ''): RpcError | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: rootPath, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    if (typeof current === 'string') {
      const reason = unstorableReason(current);
      if (reason) return invalidParams(`Invalid params: ${path || 'the message'} ${reason}`, { path });
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth) {
      return invalidParams(`Invalid params: ${path || 'the message'} nests deeper than ${maxDepth} levels`, {
        path,
        maxDepth,
      });
    }
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1)
        stack.push({ value: current[i], path: childPath(path, i), depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(current as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i]!;
      const keyPath = childPath(path, key);
      const reason = unstorableReason(key);
      if (reason) return invalidParams(`Invalid params: the key of ${keyPath} ${reason}`, { path: keyPath });
      stack.push({ value: child, path: keyPath, depth: depth + 1 });
    }
  }
  return undefined;
}
