/**
 * The `x-mcp-header` annotations of a tool's `inputSchema` (SEP-2243, 2026-07-28 Streamable HTTP
 * "Custom Headers from Tool Parameters"): each names a parameter that clients mirror into an
 * `Mcp-Param-{name}` header and that the service checks against the body on every `tools/call`.
 *
 * Read once per tool when the API starts. A tool whose annotations break the spec's constraints
 * is a handler author's mistake, refused at start-up with the reason (conforming clients would
 * silently drop such a tool from their `tools/list`, which is far harder to diagnose).
 */

export const X_MCP_HEADER = 'x-mcp-header';

/** The parameter types an annotation may sit on (`number` is excluded by the spec: floats do not round-trip). */
const HEADER_TYPES = ['string', 'integer', 'boolean'] as const;
export type ParamHeaderType = (typeof HEADER_TYPES)[number];
const isHeaderType = (type: unknown): type is ParamHeaderType => (HEADER_TYPES as readonly unknown[]).includes(type);

export interface ParamHeader {
  /** The annotation's value: the header is `Mcp-Param-{name}` (header names compare case-insensitively). */
  name: string;
  /** The chain of `properties` keys from the schema root to the annotated parameter. */
  path: readonly string[];
  type: ParamHeaderType;
}

/** RFC 9110 §5.1 field-name token: `1*tchar`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * JSON Schema 2020-12 keywords (and their draft-07 forerunners) whose values are subschemas a
 * `properties` chain does not run through: an annotation under any of them is not statically
 * reachable. Data keywords (`const`, `enum`, `default`, `examples`) are not walked: a key named
 * `x-mcp-header` inside an example value is data, not an annotation.
 */
const SINGLE_SUBSCHEMA = [
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
];
const SUBSCHEMA_LISTS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const SUBSCHEMA_MAPS = ['patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];

export class InvalidParamHeaderDeclaration extends Error {
  override readonly name = 'InvalidParamHeaderDeclaration';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const where = (path: readonly string[]) => (path.length === 0 ? 'the schema root' : `properties.${path.join('.')}`);

/** The annotated parameters of one `inputSchema`, in schema order; throws on an invalid annotation. */
export function paramHeadersOf(inputSchema: unknown): ParamHeader[] {
  const found: ParamHeader[] = [];
  const byLowerName = new Map<string, string>();
  const invalid = (path: readonly string[], problem: string) =>
    new InvalidParamHeaderDeclaration(`${X_MCP_HEADER} at ${where(path)} ${problem}`);

  const visit = (node: unknown, path: readonly string[], reachable: boolean): void => {
    if (!isObject(node)) return;
    if (Object.hasOwn(node, X_MCP_HEADER)) {
      if (!reachable || path.length === 0) {
        throw invalid(path, 'is not on a property reached from the root through "properties" keys only');
      }
      const name = node[X_MCP_HEADER];
      if (typeof name !== 'string' || !TOKEN.test(name)) {
        throw invalid(
          path,
          "must be a non-empty HTTP token (letters, digits and !#$%&'*+-.^_`|~; no spaces or colons)",
        );
      }
      const type = node.type;
      if (!isHeaderType(type)) {
        throw invalid(path, `must be on a string, integer or boolean parameter (its type is ${JSON.stringify(type)})`);
      }
      const taken = byLowerName.get(name.toLowerCase());
      if (taken !== undefined) throw invalid(path, `'${name}' repeats '${taken}' (names are case-insensitive)`);
      byLowerName.set(name.toLowerCase(), name);
      found.push({ name, path, type });
    }
    if (isObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) visit(child, [...path, key], reachable);
    }
    for (const keyword of SINGLE_SUBSCHEMA) visit(node[keyword], path, false);
    for (const keyword of SUBSCHEMA_LISTS) {
      const list = node[keyword];
      if (Array.isArray(list)) for (const child of list) visit(child, path, false);
    }
    for (const keyword of SUBSCHEMA_MAPS) {
      const map = node[keyword];
      if (isObject(map)) for (const child of Object.values(map)) visit(child, path, false);
    }
  };
  visit(inputSchema, [], true);
  return found;
}
