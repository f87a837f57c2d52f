/**
 * `npm run helm:schema`: writes the Helm chart's parts generated from lib/config (the `config` and
 * `secrets` parts of deploy/helm/durable-mcp/values.schema.json, and its templates/_generated.tpl).
 * Run it after changing a declaration in lib/config; scripts/helm/values-schema.test.ts fails until then.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../lib/paths';
import { CHART_DIR } from './helm/chart-variables';
import { generatedTemplate, withGeneratedParts } from './helm/values-schema';

const chart = path.join(projectRoot(), CHART_DIR);
const schemaFile = path.join(chart, 'values.schema.json');
writeFileSync(schemaFile, withGeneratedParts(readFileSync(schemaFile, 'utf8')));
writeFileSync(path.join(chart, 'templates', '_generated.tpl'), generatedTemplate());
process.stdout.write(`wrote ${path.relative(process.cwd(), schemaFile)} and templates/_generated.tpl\n`);
