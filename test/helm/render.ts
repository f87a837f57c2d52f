/**
 * The chart rendered as `helm template` renders it, parsed: each documented combination of values
 * (deploy/helm/durable-mcp/ci/*.yaml, each over ci/default-values.yaml), or any values given here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '../../lib/paths';
import { CHART_DIR } from '../../scripts/helm/chart-variables';
import type { K8sObject } from '../../scripts/helm/chart-objects';
import { helm, KUBERNETES_VERSION, PYTHON } from './chart-tools';

export const CHART = path.join(projectRoot(), CHART_DIR);
export const RELEASE = 'mcp';
export const NAMESPACE = 'durable-mcp';

/** The documented combinations: ci/<name>-values.yaml over ci/default-values.yaml. */
export const COMBINATIONS = {
  default: [],
  mtls: ['ci/mtls-values.yaml'],
  'api-key': ['ci/api-key-values.yaml'],
  'worker-controller': ['ci/worker-controller-values.yaml'],
  ingress: ['ci/ingress-values.yaml'],
} as const;
export type Combination = keyof typeof COMBINATIONS;

export type { K8sObject } from '../../scripts/helm/chart-objects';

/** The `-f` arguments of a combination, defaults first. */
export const valuesArgs = (combination: Combination) =>
  ['ci/default-values.yaml', ...COMBINATIONS[combination]].flatMap((file) => ['-f', path.join(CHART, file)]);

/** `helm template` of the chart with `args` (values files, `--set`...), as YAML text. */
export function renderText(args: string[]): string {
  return helm(['template', RELEASE, CHART, '--namespace', NAMESPACE, '--kube-version', KUBERNETES_VERSION, ...args]);
}

/** The objects `helm template` renders with `args`. */
export function render(args: string[]): K8sObject[] {
  return parseAllDocuments(renderText(args))
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((obj): obj is K8sObject => obj !== null);
}

/** `values` (an object) as a values file for one render, then removed. */
export function renderWith(combination: Combination, values: object): K8sObject[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'chart-values-'));
  try {
    const file = path.join(dir, 'values.json');
    writeFileSync(file, JSON.stringify(values));
    return render([...valuesArgs(combination), '-f', file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The message a render fails with (helm's stderr), or undefined when it renders. */
export function renderError(args: string[]): string | undefined {
  try {
    renderText(args);
    return undefined;
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error);
  }
}

/** The one object of `kind` named for `component` (`mcp-durable-mcp-api`; '' for the release's own name). */
export function find(objects: K8sObject[], kind: string, component: string): K8sObject {
  const name = component ? `${RELEASE}-durable-mcp-${component}` : `${RELEASE}-durable-mcp`;
  const found = objects.filter((o) => o.kind === kind && o.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
  return found[0]!;
}

/** Runs the chart tools' Python with `script` on `input` (JSON) and parses what it prints. */
export function python<T>(script: string, args: string[], input: unknown): T {
  return JSON.parse(
    execFileSync(PYTHON, [path.join(__dirname, script), ...args], {
      input: JSON.stringify(input),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }),
  ) as T;
}
