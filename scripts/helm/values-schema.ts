/**
 * The Helm chart's parts generated from lib/config, so the chart cannot drift from the one
 * declaration of variables: the `config` and `secrets` parts of values.schema.json (each variable
 * with its kind of value, its default and its doc), and templates/_generated.tpl (which secrets each
 * pod reads and requires, and the service's defaults the templates reason with). The rest of
 * values.schema.json is written by hand. scripts/helm-values-schema.ts writes both files;
 * values-schema.test.ts fails when the committed ones differ from what this makes.
 */
import { z } from 'zod';
import { CONFIG_GROUPS, defaultOf } from '../../lib/config/schema';
import { docOf } from '../../lib/config/variables/documented';
import { CHART_SECRETS, CHART_SETS, secretsByPod } from './chart-variables';

type JsonSchema = Record<string, unknown>;

/** Every declared variable with its schema, in the order docs/configuration.md lists them. */
const declared = (): Array<[string, z.ZodType]> =>
  CONFIG_GROUPS.flatMap((group) => Object.entries(group.variables) as Array<[string, z.ZodType]>);

/** Whole numbers are written as numbers in values, and `true`/`false` as booleans: both are taken. */
function valueSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  delete json.default;
  const alternatives: JsonSchema[] = [json];
  if (json.pattern === '^\\d+$') alternatives.unshift({ type: 'integer', minimum: 0 });
  const values = json.enum as unknown[] | undefined;
  if (values?.length === 2 && values.includes('true') && values.includes('false'))
    alternatives.unshift({ type: 'boolean' });
  // An empty value means unset to the service (unsetWhenEmpty): the schema takes it too.
  if (schema.safeParse('').success && (json.minLength !== undefined || json.pattern !== undefined))
    alternatives.unshift({ const: '' });
  return alternatives.length === 1 ? json : { anyOf: alternatives };
}

function described(name: string, schema: z.ZodType): JsonSchema {
  const doc = docOf(schema);
  if (!doc) throw new Error(`${name} has no doc: declare it with documented(...)`);
  const found = defaultOf(schema);
  const shown = doc.shownDefault ?? (found.required ? '(required)' : found.value === '' ? '(none)' : found.value);
  return { description: `${doc.description}. Default: ${shown}` };
}

/** `config`: every variable that is neither a secret nor set by the chart, by its own name. */
export function configSchema(): JsonSchema {
  const properties = Object.fromEntries(
    declared()
      .filter(([name]) => !CHART_SECRETS.includes(name) && !(name in CHART_SETS))
      .map(([name, schema]) => [name, { ...described(name, schema), ...valueSchema(schema) }]),
  );
  return {
    type: 'object',
    description:
      'Variables of docs/configuration.md by name (generated from lib/config); the chart sets the others itself, secrets go under secrets',
    additionalProperties: false,
    properties,
  };
}

/** `secrets`: each secret by its variable's name, given by value or by an existing Secret. */
export function secretsSchema(): JsonSchema {
  const schemas = new Map(declared());
  const properties = Object.fromEntries(
    CHART_SECRETS.map((name) => {
      const schema = schemas.get(name);
      if (!schema) throw new Error(`secret ${name} is not a declared variable`);
      const value = { ...valueSchema(schema), description: 'the value: the chart makes a Secret holding it' };
      return [
        name,
        {
          ...described(name, schema),
          type: 'object',
          additionalProperties: false,
          properties: {
            value,
            existingSecret: { type: 'string', description: 'the name of your Secret holding it (wins over value)' },
            existingSecretKey: { type: 'string', description: "its key in that Secret (unset: the variable's name)" },
          },
        },
      ];
    }),
  );
  return {
    type: 'object',
    description: 'Secrets by variable name (generated from lib/config), each given only to the pods that read it',
    additionalProperties: false,
    properties,
  };
}

/** values.schema.json with its generated parts made anew from lib/config, as the file is written. */
export function withGeneratedParts(schemaText: string): string {
  const schema = JSON.parse(schemaText) as { properties: Record<string, unknown> };
  schema.properties.config = configSchema();
  schema.properties.secrets = secretsSchema();
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** templates/_generated.tpl: the secrets each pod reads and requires, and the service's defaults. */
export function generatedTemplate(): string {
  const requiredByAll = declared()
    .filter(([name, schema]) => CHART_SECRETS.includes(name) && defaultOf(schema).required)
    .map(([name]) => name);
  const define = (name: string, body: string) => `{{- define "${name}" -}}${body}{{- end -}}`;
  const pods = Object.entries(secretsByPod(requiredByAll)).flatMap(([pod, { reads, requires }]) => [
    define(`durable-mcp.secrets.${pod}`, reads.join(' ')),
    define(`durable-mcp.secrets.required.${pod}`, requires.join(' ')),
  ]);
  const defaults = declared().flatMap(([name, schema]) => {
    const found = defaultOf(schema);
    return found.required ? [] : [`${name}: ${JSON.stringify(found.value)}`];
  });
  return [
    '{{/* Generated from lib/config by `npm run helm:schema`: change a declaration there, not this file. */}}',
    '',
    '{{/* The secrets each pod reads, and those it cannot start without (lib/config/process-role.ts). */}}',
    ...pods,
    '',
    "{{/* The service's default of each variable that has one, as the environment spells it. */}}",
    '{{- define "durable-mcp.variableDefaults" -}}',
    ...defaults,
    '{{- end -}}',
    '',
  ].join('\n');
}
