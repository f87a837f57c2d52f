/**
 * `npm run helm:processes -- [--secrets FILE] [helm template arguments]`: renders
 * deploy/helm/durable-mcp with `helm template` and prints, as JSON, each process its pods would
 * start (scripts/helm/rendered-processes.ts): the command line, the environment resolved from the
 * ConfigMap and the Secrets (FILE: `{"<secret>": {"<key>": "<value>"}}` for those the chart does not
 * make), probes, preStop and grace. What a native run of the rendered containers starts.
 *
 *   npm run helm:processes -- --secrets my-secrets.json -f deploy/helm/durable-mcp/ci/default-values.yaml
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '../lib/paths';
import type { K8sObject } from './helm/chart-objects';
import { CHART_DIR } from './helm/chart-variables';
import { findHelm } from './helm/helm-binary';
import { renderedProcesses } from './helm/rendered-processes';

function main(argv: string[]): void {
  const helm = findHelm();
  if (!helm) throw new Error('no helm: set HELM_PATH, or build it as .ci/run does');
  const at = argv.indexOf('--secrets');
  const secrets =
    at >= 0 ? (JSON.parse(readFileSync(argv[at + 1]!, 'utf8')) as Record<string, Record<string, string>>) : {};
  const args = at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + 2)] : argv;
  const text = execFileSync(helm, ['template', 'durable-mcp', path.join(projectRoot(), CHART_DIR), ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const objects = parseAllDocuments(text)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
  process.stdout.write(`${JSON.stringify(renderedProcesses(objects, { secrets }), null, 2)}\n`);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`helm:processes: ${(error as { stderr?: string }).stderr || (error as Error).message}\n`);
  process.exit(1);
}
