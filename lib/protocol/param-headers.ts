/**
 * The `Mcp-Param-{Name}` headers of one 2026-07-28 `tools/call` against its body (SEP-2243
 * "Server Behavior for Custom Headers"): intermediaries route on these headers, the handler acts
 * on the body, so the two must say the same thing or the request is refused (-32020, HTTP 400)
 * before anything starts. For each parameter the tool declared with `x-mcp-header`:
 *
 * - a value in `arguments` needs its header, and the header (decoded when Base64) must equal it:
 *   strings as they are, booleans as `true` / `false`, integers numerically (`42.0` is `42`);
 * - no value (absent or `null`) needs no header, and a header sent anyway is refused too: it
 *   claims a value the handler will never see;
 * - a value the header cannot mirror (an object, an array, an integer beyond ±(2^53−1), which JSON
 *   readers round) is `-32602` naming the field, whatever the header says.
 *
 * `Mcp-Param-*` headers the tool did not declare are ignored, as HTTP asks of unknown headers.
 * The work is bounded by the tool's own declarations, not by what the client sends.
 */
import { decodeHeaderValue } from './header-value';
import type { ParamHeader } from './param-header-declarations';
import {
  invalidHeaderValue,
  invalidParams,
  paramHeaderMismatch,
  paramHeaderMissing,
  paramHeaderWithoutValue,
} from './error-catalog';

export const PARAM_HEADER_PREFIX = 'Mcp-Param-';

/** Decimal numerals a client may write an integer as (no exponent, hex or sign but `-`). */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** The value at a chain of own `properties` keys (never an inherited one such as `constructor`). */
function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, key)) {
      return undefined;
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function mirrors(headerValue: string, body: string | number | boolean): boolean {
  if (typeof body === 'number') {
    return DECIMAL.test(headerValue) ? Number(headerValue) === body : headerValue === String(body);
  }
  return headerValue === String(body);
}

/** Throws the refusal of the first declared parameter whose header and body disagree. */
export function checkParamHeaders(
  declared: readonly ParamHeader[],
  args: unknown,
  header: (name: string) => string | undefined,
): void {
  for (const { name, path } of declared) {
    const headerName = `${PARAM_HEADER_PREFIX}${name}`;
    const bodyPath = ['params', 'arguments', ...path].join('.');
    const raw = header(headerName);
    const body = valueAt(args, path);
    if (body === undefined || body === null) {
      if (raw !== undefined) throw paramHeaderWithoutValue(headerName, bodyPath);
      continue;
    }
    if (typeof body !== 'string' && typeof body !== 'number' && typeof body !== 'boolean') {
      throw invalidParams(
        `Invalid params: ${bodyPath} must be a string, integer or boolean (${headerName} mirrors it)`,
        {
          path: bodyPath,
        },
      );
    }
    if (typeof body === 'number' && Number.isInteger(body) && !Number.isSafeInteger(body)) {
      throw invalidParams(`Invalid params: ${bodyPath} is beyond ±(2^53−1) (${headerName} mirrors it)`, {
        path: bodyPath,
      });
    }
    if (raw === undefined) throw paramHeaderMissing(headerName, bodyPath);
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) throw invalidHeaderValue(headerName, decoded.problem);
    if (!mirrors(decoded.value, body)) throw paramHeaderMismatch(headerName, decoded.value, bodyPath, String(body));
  }
}
