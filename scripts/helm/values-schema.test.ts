// Holds the Helm chart to lib/config: its generated files are what lib/config makes now (run
// `npm run helm:schema` after changing a declaration), every variable is placed (config, a secret,
// or set by the chart), values.yaml names every secret and no unknown variable, and the schema
// refuses what the service would refuse.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { CONFIG_VARIABLES } from '../../lib/config';
import { projectRoot } from '../../lib/paths';
import { CHART_DIR, CHART_SECRETS, CHART_SETS } from './chart-variables';
import { generatedTemplate, withGeneratedParts } from './values-schema';

const chart = path.join(projectRoot(), CHART_DIR);
const read = (file: string) => readFileSync(path.join(chart, file), 'utf8');
const schemaText = read('values.schema.json');
const schema = JSON.parse(schemaText) as {
  properties: Record<string, { properties: Record<string, unknown> }>;
};
const values = parse(read('values.yaml')) as { config: Record<string, unknown>; secrets: Record<string, unknown> };

describe('the Helm chart and lib/config', () => {
  it('commits values.schema.json and templates/_generated.tpl as lib/config makes them now', () => {
    expect(schemaText).toBe(withGeneratedParts(schemaText));
    expect(read('templates/_generated.tpl')).toBe(generatedTemplate());
  });

  it('places every variable once: config, secrets, or set by the chart from its own values', () => {
    const config = Object.keys(schema.properties.config!.properties);
    const secrets = Object.keys(schema.properties.secrets!.properties);
    const placed = [...config, ...secrets, ...Object.keys(CHART_SETS)];
    expect([...placed].sort()).toEqual(CONFIG_VARIABLES.map((v) => v.name).sort());
    expect(new Set(placed).size).toBe(placed.length);
    expect(secrets).toEqual([...CHART_SECRETS]);
  });

  it('lists every secret in values.yaml, and no config the service does not read', () => {
    expect(Object.keys(values.secrets).sort()).toEqual([...CHART_SECRETS].sort());
    const config = schema.properties.config!.properties;
    expect(Object.keys(values.config).filter((name) => !(name in config))).toEqual([]);
  });

  describe('values.schema.json', () => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const withConfig = (config: Record<string, unknown>) => ({ ...values, config });

    it('takes values.yaml and config as operators write it', () => {
      expect(validate(values)).toBe(true);
      expect(
        validate(
          withConfig({
            AUTH_MODE: 'oauth',
            ROUND_TIMEOUT_MS: 600000,
            MAX_ROUNDS: '8',
            ALLOW_UNAUTHENTICATED: true,
            PAYLOAD_CODEC_ACCEPT_PLAINTEXT: 'false',
            HANDLERS: '',
          }),
        ),
      ).toBe(true);
    });

    it.each([
      ['a variable the service does not read', { NOT_A_VARIABLE: '1' }],
      ['a secret, which goes under secrets', { ADMIN_TOKEN: 'x'.repeat(40) }],
      ['a variable the chart sets itself', { TEMPORAL_ADDRESS: 'temporal:7233' }],
      ['a value outside the enum', { LOG_LEVEL: 'loud' }],
      ['a number that is not whole', { MAX_ROUNDS: 8.5 }],
      ['a negative number', { MAX_ROUNDS: -1 }],
    ])('refuses %s', (_what, config) => {
      expect(validate(withConfig(config))).toBe(false);
    });

    it('refuses a secret by value that the service would refuse, and a secret by an unknown field', () => {
      expect(validate({ ...values, secrets: { ...values.secrets, ADMIN_TOKEN: { value: 'short' } } })).toBe(false);
      expect(validate({ ...values, secrets: { ...values.secrets, DATABASE_URL: { value: 'mysql://x' } } })).toBe(false);
      expect(validate({ ...values, secrets: { ...values.secrets, DATABASE_URL: { secretName: 'x' } } })).toBe(false);
      expect(validate({ ...values, secrets: { ...values.secrets, DATABASE_URL: { existingSecret: 'db' } } })).toBe(
        true,
      );
    });
  });
});
