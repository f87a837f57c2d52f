/**
 * The Helm chart README's values reference: every value the chart takes, with its type and what it
 * sets from values.schema.json and its default from values.yaml, so the reference cannot say other
 * than what the chart takes. `config` and `secrets`, each a map of the hundred-odd variables of
 * docs/configuration.md (their schema generated from lib/config), are summarized and point there.
 * scripts/helm-values-schema.ts writes it into the README between the markers;
 * values-reference.test.ts fails when the committed README differs, or a value has no description.
 */
import { stringify } from 'yaml';

/** What the reference reads of a JSON schema node. */
export interface SchemaNode {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

export const REFERENCE_START = '<!-- values-reference:start -->';
export const REFERENCE_END = '<!-- values-reference:end -->';

/** Where docs/configuration.md is from the chart's README. */
const CONFIGURATION_DOC = '../../../docs/configuration.md';

/** The maps by variable name, summarized: the row that stands for each entry, and what the section adds. */
const SUMMARIZED: Record<string, { entry: string; more: (names: string[]) => string }> = {
  config: {
    entry: "the variable (a string, or a number or boolean where the variable takes one); unset, the service's default",
    more: (names) =>
      `Its ${names.length} variables, each with the values it takes and its default: [docs/configuration.md](${CONFIGURATION_DOC}).`,
  },
  secrets: {
    entry: 'the secret, by value or by your Secret',
    more: (names) =>
      `The secrets: ${names.map((n) => `\`${n}\``).join(', ')}. What each holds, its format and whether it is required: [docs/configuration.md](${CONFIGURATION_DOC}).`,
  },
};

interface Value {
  path: string;
  node: SchemaNode;
  /** values.yaml's value at the path, when it sets one. */
  default?: { value: unknown };
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The values under a node, depth first: its properties, and those of its array's items (`hosts[].host`). */
export function valuesUnder(node: SchemaNode, prefix = '', defaults?: { value: unknown }): Value[] {
  const found: Value[] = [];
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const given =
      defaults && isMap(defaults.value) && name in defaults.value ? { value: defaults.value[name] } : undefined;
    found.push({ path, node: child, ...(given ? { default: given } : {}) });
    found.push(...valuesUnder(child, path, given));
    if (child.items) found.push(...valuesUnder(child.items, `${path}[]`));
  }
  return found;
}

/** Every value of the schema, at any depth, that has no description: each must say what it sets. */
export function undocumented(schema: SchemaNode): string[] {
  return valuesUnder(schema)
    .filter(({ node }) => !node.description?.trim())
    .map(({ path }) => path);
}

/** A table cell: one line, no column break, and outside code spans no `<` an HTML reader would take for a tag. */
const cell = (text: string) =>
  text
    .replace(/\s*\n\s*/g, ' ')
    .split('`')
    .map((part, i) => (i % 2 === 0 ? part.replace(/</g, '&lt;') : part))
    .join('`')
    .replace(/\|/g, '\\|');

const code = (text: string) => `\`${text}\``;

/** A default as values.yaml would spell it (YAML 1.1, as Helm reads it: `"off"` stays quoted). */
const yamlOf = (value: unknown) =>
  stringify(value, { collectionStyle: 'flow', lineWidth: 0, version: '1.1' }).trimEnd();

function typeOf(node: SchemaNode, untyped = 'any'): string {
  const types = Array.isArray(node.type) ? node.type : [node.type ?? untyped];
  let type = types.join(' or ');
  if (type === 'array' && node.items) type = `array of ${typeOf(node.items)}`;
  if (node.enum) type += `: ${node.enum.map((v) => code(String(v))).join(', ')}`;
  if (node.minimum !== undefined && node.maximum !== undefined) type += `, ${node.minimum} to ${node.maximum}`;
  else if (node.minimum !== undefined) type += `, at least ${node.minimum}`;
  else if (node.maximum !== undefined) type += `, at most ${node.maximum}`;
  return type;
}

/** A sentence of a description: its first letter capitalized, ended by a full stop. */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1).replace(/\.?$/, '.')}`;

const table = (rows: string[][]) => [
  '| Value | Type | Default | Description |',
  '|---|---|---|---|',
  ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
];

/** A value's row; a group of values (a node with properties) shows its default in its own rows. */
const row = ({ path, node, default: given }: Value, untyped?: string) => [
  code(path),
  typeOf(node, untyped),
  given && !node.properties ? code(yamlOf(given.value)) : '',
  node.description ?? '',
];

/** The rows of a map by variable name: one for any entry, then the fields every entry has. */
function summaryRows(name: string, node: SchemaNode): string[][] {
  const entry = `${name}.<VARIABLE>`;
  const first = Object.values(node.properties ?? {})[0];
  const rows = [[code(entry), first?.properties ? 'object' : 'per variable', '', SUMMARIZED[name]!.entry]];
  for (const field of valuesUnder(first ?? {}, entry))
    rows.push(row({ path: field.path, node: field.node }, 'per variable'));
  return rows;
}

/**
 * The reference, in sections: the chart-wide values first (those not in a group), then a section
 * for each group of values, in the schema's order.
 */
export function valuesReference(schema: SchemaNode, values: Record<string, unknown>): string {
  const lines = [
    '<!-- Generated by `npm run helm:schema` from values.schema.json (types, descriptions) and values.yaml (defaults): change those, not this. -->',
    '',
  ];
  const top = valuesUnder({ properties: schema.properties }, '', { value: values }).filter(
    ({ path }) => !path.includes('.') && !path.includes('['),
  );
  const chartWide = top.filter(({ node }) => !node.properties);
  lines.push('### Chart-wide', '', ...table(chartWide.map((value) => row(value))), '');
  for (const group of top.filter(({ node }) => node.properties)) {
    lines.push(`### ${code(group.path)}`, '', sentence(group.node.description ?? ''));
    const summary = SUMMARIZED[group.path];
    if (summary) {
      lines.push(summary.more(Object.keys(group.node.properties!)), '');
      lines.push(...table(summaryRows(group.path, group.node)), '');
    } else {
      const inside = valuesUnder(group.node, group.path, group.default);
      lines.push('', ...table(inside.map((value) => row(value))), '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The README with the reference between its markers, the rest as it was. */
export function withValuesReference(readme: string, reference: string): string {
  const start = readme.indexOf(REFERENCE_START);
  const end = readme.indexOf(REFERENCE_END);
  if (start < 0 || end < start)
    throw new Error(`the README needs ${REFERENCE_START} then ${REFERENCE_END} where the values reference goes`);
  // A blank line before the end marker, so no Markdown reader takes it for part of the last table.
  return `${readme.slice(0, start + REFERENCE_START.length)}\n${reference}\n${readme.slice(end)}`;
}
