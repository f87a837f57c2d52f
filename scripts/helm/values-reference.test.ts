// Holds the Helm chart's README to its values: the values reference in it is what values.schema.json
// and values.yaml make now (run `npm run helm:schema` after changing either), and every value of the
// schema says what it sets, so a new value cannot go in undocumented.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../../lib/paths';
import { CHART_DIR } from './chart-variables';
import {
  REFERENCE_END,
  REFERENCE_START,
  type SchemaNode,
  undocumented,
  valuesReference,
  valuesUnder,
  withValuesReference,
} from './values-reference';

const chart = path.join(projectRoot(), CHART_DIR);
const read = (file: string) => readFileSync(path.join(chart, file), 'utf8');

describe("the Helm chart's values reference", () => {
  const readme = read('README.md');
  const schema = JSON.parse(read('values.schema.json')) as SchemaNode;
  const values = parse(read('values.yaml')) as Record<string, unknown>;

  it('is in the README as values.schema.json and values.yaml make it now (npm run helm:schema)', () => {
    expect(readme).toBe(withValuesReference(readme, valuesReference(schema, values)));
  });

  it('has a description for every value of values.schema.json, at any depth', () => {
    expect(valuesUnder(schema).length).toBeGreaterThan(300);
    expect(undocumented(schema)).toEqual([]);
  });

  it('lists every value outside config and secrets: on a row of its own, or a group in a section of its own', () => {
    const rows = new Set([...readme.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]));
    const sections = new Set([...readme.matchAll(/^### `([^`]+)`$/gm)].map((m) => m[1]));
    const listed = valuesUnder(schema)
      .map((v) => v.path)
      .filter((p) => !/^(config|secrets)\./.test(p));
    expect(listed.filter((p) => !rows.has(p) && !sections.has(p))).toEqual([]);
    expect(rows.has('config.<VARIABLE>') && rows.has('secrets.<VARIABLE>.existingSecret')).toBe(true);
  });
});

const sample: SchemaNode = {
  type: 'object',
  properties: {
    nameOverride: { type: 'string', description: 'a name; empty: <release>' },
    api: {
      type: 'object',
      description: 'the API',
      properties: {
        port: { type: 'integer', minimum: 1, maximum: 65535, description: 'its port | the pod’s' },
        versioning: { type: 'string', enum: ['off', 'pinned'], description: 'off or pinned' },
        resources: {
          type: 'object',
          description: 'requests and limits',
          properties: { requests: { type: 'object', description: 'its requests' } },
        },
        hosts: {
          type: 'array',
          description: 'hosts',
          items: { type: 'object', properties: { host: { type: 'string', description: 'a host' } } },
        },
      },
    },
    config: {
      type: 'object',
      description: 'variables by name',
      properties: { A: { type: 'string', description: 'a' }, B: { type: 'string', description: 'b' } },
    },
    secrets: {
      type: 'object',
      description: 'secrets by name',
      properties: {
        S: {
          type: 'object',
          description: 's',
          properties: { value: { anyOf: [{ type: 'string' }], description: 'the value' } as SchemaNode },
        },
      },
    },
  },
};
const sampleValues = {
  nameOverride: '',
  api: { port: 3000, versioning: 'off', resources: { requests: { cpu: '1', memory: '512Mi' } }, hosts: [] },
  config: {},
  secrets: { S: {} },
};

describe('valuesUnder and undocumented', () => {
  it('walk properties at any depth and the properties of array items, with defaults where values set them', () => {
    const found = valuesUnder(sample, '', { value: sampleValues });
    expect(found.map((v) => v.path)).toEqual([
      'nameOverride',
      'api',
      'api.port',
      'api.versioning',
      'api.resources',
      'api.resources.requests',
      'api.hosts',
      'api.hosts[].host',
      'config',
      'config.A',
      'config.B',
      'secrets',
      'secrets.S',
      'secrets.S.value',
    ]);
    const at = (p: string) => found.find((v) => v.path === p)!;
    expect(at('api.port').default).toEqual({ value: 3000 });
    expect(at('api.hosts[].host').default).toBeUndefined();
    expect(at('config.A').default).toBeUndefined();
  });

  it('name each value without a description, however deep, blank ones too', () => {
    const missing = structuredClone(sample);
    delete missing.properties!.api!.properties!.resources!.properties!.requests!.description;
    missing.properties!.api!.properties!.hosts!.items!.properties!.host!.description = '  ';
    missing.properties!.secrets!.properties!.S!.description = '';
    expect(undocumented(missing)).toEqual(['api.resources.requests', 'api.hosts[].host', 'secrets.S']);
    expect(undocumented(sample)).toEqual([]);
  });
});

describe('valuesReference', () => {
  const reference = valuesReference(sample, sampleValues);
  const lines = reference.split('\n');

  it('puts the values outside groups first, then a section for each group with its description', () => {
    const headings = lines.filter((line) => line.startsWith('### '));
    expect(headings).toEqual(['### Chart-wide', '### `api`', '### `config`', '### `secrets`']);
    expect(lines).toContain('| `nameOverride` | string | `""` | a name; empty: &lt;release> |');
    expect(lines[lines.indexOf('### `api`') + 2]).toBe('The API.');
  });

  it('gives each value its type and constraints, and its default as values.yaml spells it for Helm', () => {
    expect(lines).toContain('| `api.port` | integer, 1 to 65535 | `3000` | its port \\| the pod’s |');
    expect(lines).toContain('| `api.versioning` | string: `off`, `pinned` | `"off"` | off or pinned |');
    expect(lines).toContain('| `api.resources` | object |  | requests and limits |');
    expect(lines).toContain('| `api.resources.requests` | object | `{ cpu: "1", memory: 512Mi }` | its requests |');
    expect(lines).toContain('| `api.hosts[].host` | string |  | a host |');
  });

  it('summarizes config and secrets, naming every secret, and points to docs/configuration.md', () => {
    expect(reference).toContain('Its 2 variables, each with the values it takes and its default');
    expect(reference).toContain('The secrets: `S`.');
    expect(reference).toContain('](../../../docs/configuration.md)');
    expect(lines.filter((line) => line.startsWith('| `config.'))).toHaveLength(1);
    expect(lines).toContain('| `secrets.<VARIABLE>.value` | per variable |  | the value |');
    expect(reference).not.toContain('`config.A`');
  });
});

describe('withValuesReference', () => {
  const readme = `# Chart\n\nabove\n\n${REFERENCE_START}\nold\n${REFERENCE_END}\n\nbelow\n`;

  it('replaces what is between the markers and nothing else, the same each time', () => {
    const once = withValuesReference(readme, 'new\n');
    expect(once).toBe(`# Chart\n\nabove\n\n${REFERENCE_START}\nnew\n\n${REFERENCE_END}\n\nbelow\n`);
    expect(withValuesReference(once, 'new\n')).toBe(once);
  });

  it('refuses a README without both markers in order', () => {
    expect(() => withValuesReference('# Chart\n', 'new\n')).toThrow(REFERENCE_START);
    expect(() => withValuesReference(`${REFERENCE_END}\n${REFERENCE_START}\n`, 'new\n')).toThrow(REFERENCE_START);
  });
});
