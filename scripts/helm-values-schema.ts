/**
 * `npm run helm:schema`: writes the Helm chart's parts generated from lib/config (the `config` and
 * `secrets` parts of deploy/helm/durable-mcp/values.schema.json, and its templates/_generated.tpl),
 * then the values reference of the chart's README.md from values.schema.json and values.yaml.
 * Run it after changing a declaration in lib/config or a value of the chart;
 * scripts/helm/values-schema.test.ts and values-reference.test.ts fail until then.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../lib/paths';
import { CHART_DIR } from './helm/chart-variables';
import { valuesReference, withValuesReference } from './helm/values-reference';
import { generatedTemplate, withGeneratedParts } from './helm/values-schema';

const chart = path.join(projectRoot(), CHART_DIR);
const schemaFile = path.join(chart, 'values.schema.json');
const schemaText = withGeneratedParts(readFileSync(schemaFile, 'utf8'));
writeFileSync(schemaFile, schemaText);
writeFileSync(path.join(chart, 'templates', '_generated.tpl'), generatedTemplate());
const readmeFile = path.join(chart, 'README.md');
const values = parse(readFileSync(path.join(chart, 'values.yaml'), 'utf8')) as Record<string, unknown>;
const reference = valuesReference(JSON.parse(schemaText), values);
writeFileSync(readmeFile, withValuesReference(readFileSync(readmeFile, 'utf8'), reference));
process.stdout.write(
  `wrote ${path.relative(process.cwd(), schemaFile)}, templates/_generated.tpl and README.md's values reference\n`,
);
