/**
 * The Helm chart checked offline, for the default values and each documented combination
 * (deploy/helm/durable-mcp/ci/*.yaml): `helm lint`; every rendered object validated against the
 * Kubernetes API schemas of KUBERNETES_VERSION (the kubernetes-validate package's, strict: an
 * unknown field fails); and a static policy scan (checkov) with no finding left that the chart does
 * not justify. The custom resources (ServiceMonitor, HTTPRoute, the Worker Controller's) have no
 * schema there: they are listed, never silently passed, and the WorkerDeployment's pod template is
 * validated and scanned as the Deployment the controller makes of it. Needs helm, python3 with
 * kubernetes_validate and checkov (chart-tools.ts): skipped without them outside CI.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { CHECKOV, describeWith, helm, KUBERNETES_VERSION } from './chart-tools';
import {
  CHART,
  COMBINATIONS,
  python,
  render,
  renderWith,
  valuesArgs,
  type Combination,
  type K8sObject,
} from './render';
import { asDeployment } from './pods';

const combinations = Object.keys(COMBINATIONS) as Combination[];

/** Custom resources, which the Kubernetes schemas do not hold: what each is checked by instead. */
const CUSTOM_KINDS: Record<string, string> = {
  ServiceMonitor: 'the Prometheus Operator CRD: fields asserted in chart-objects.unit.test.ts',
  HTTPRoute: 'the Gateway API CRD: fields asserted in chart-objects.unit.test.ts',
  Connection: "the Worker Controller's CRD: fields asserted in chart-objects.unit.test.ts",
  WorkerDeployment: 'its pod template validated and scanned as a Deployment (asDeployment)',
};

/** The objects as the schemas and the scan read them: the WorkerDeployment's pods as a Deployment too. */
const checkable = (objects: K8sObject[]) => [
  ...objects,
  ...objects.filter((o) => o.kind === 'WorkerDeployment').map(asDeployment),
];

interface Verdict {
  kind: string;
  name: string;
  verdict: 'passed' | 'failed' | 'no-schema';
  message: string;
}
const validate = (objects: K8sObject[]) =>
  python<Verdict[]>('validate_manifests.py', [KUBERNETES_VERSION], checkable(objects));

interface CheckovReport {
  summary: { passed: number; failed: number; skipped: number; parsing_errors: number };
  results: {
    failed_checks?: Array<{ check_id: string; resource: string; check_name: string }>;
    skipped_checks?: Array<{ check_id: string; resource: string; suppress_comment?: string }>;
  };
}

/** checkov's report on `objects`, offline (--skip-download: no Prisma Cloud guidelines are fetched). */
function scan(objects: K8sObject[]): CheckovReport {
  const dir = mkdtempSync(path.join(tmpdir(), 'chart-scan-'));
  try {
    const file = path.join(dir, 'rendered.yaml');
    writeFileSync(
      file,
      checkable(objects)
        .map((o) => stringify(o))
        .join('---\n'),
    );
    let out: string;
    try {
      out = execFileSync(
        CHECKOV,
        ['-f', file, '--framework', 'kubernetes', '--output', 'json', '--quiet', '--skip-download'],
        { encoding: 'utf8', env: { ...process.env, BC_SKIP_MAPPING: 'TRUE' }, maxBuffer: 64 * 1024 * 1024 },
      );
    } catch (error) {
      out = String((error as { stdout?: string }).stdout ?? ''); // exit 1: findings, reported below
    }
    // With nothing failed, --quiet prints the summary only; either way one JSON report.
    return JSON.parse(out) as CheckovReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describeWith(['helm'])('the chart: helm lint', () => {
  it.each(combinations)('passes helm lint --strict (%s)', (combination) => {
    expect(helm(['lint', CHART, '--strict', ...valuesArgs(combination)])).toMatch(
      /1 chart\(s\) linted, 0 chart\(s\) failed/,
    );
  });
});

describeWith(['helm', 'kubernetesValidate'])(`the chart: Kubernetes ${KUBERNETES_VERSION} API schemas`, () => {
  it.each(combinations)(
    'renders only objects valid against the schemas, or named custom resources (%s)',
    (combination) => {
      const verdicts = validate(render(valuesArgs(combination)));
      expect(verdicts.filter((v) => v.verdict === 'failed')).toEqual([]);
      expect(verdicts.filter((v) => v.verdict === 'no-schema' && !(v.kind in CUSTOM_KINDS))).toEqual([]);
      expect(verdicts.filter((v) => v.verdict === 'passed').length).toBeGreaterThan(10);
    },
  );

  it('has teeth: an unknown field or a wrong type fails', () => {
    const objects = render(valuesArgs('default'));
    const broken = structuredClone(objects.find((o) => o.kind === 'Deployment')!);
    (broken.spec as Record<string, unknown>).replica = 2;
    const wrongType = structuredClone(objects.find((o) => o.kind === 'Service')!);
    (wrongType.spec as { ports: Array<{ port: unknown }> }).ports[0]!.port = 'eighty';
    expect(validate([broken, wrongType]).map((v) => v.verdict)).toEqual(['failed', 'failed']);
  });
});

describeWith(['helm', 'checkov'])('the chart: static policy scan (checkov)', () => {
  // One scan of every combination (a scan takes seconds), each in a namespace named after it (not
  // `default`, which the scan flags), as checkov names a resource `<kind>.<namespace>.<name>`.
  let report: CheckovReport;
  beforeAll(() => {
    report = scan(
      combinations.flatMap((combination) =>
        render(valuesArgs(combination)).map((o) => ({
          ...o,
          metadata: { ...o.metadata, namespace: `scan-${combination}` },
        })),
      ),
    );
  }, 300_000);
  const of = <T extends { resource: string }>(combination: Combination, checks: T[] = []): T[] =>
    checks.filter((check) => check.resource.split('.')[1] === `scan-${combination}`);

  it('reads every object', () => {
    expect(report.summary.parsing_errors).toBe(0);
    expect(report.summary.passed).toBeGreaterThan(100 * combinations.length);
  });

  it.each(combinations)('leaves no finding the chart does not justify (%s)', (combination) => {
    expect(of(combination, report.results.failed_checks)).toEqual([]);
    // Every skip is one of the chart's annotations, with its reason.
    for (const skipped of of(combination, report.results.skipped_checks))
      expect({ check: skipped.check_id, reason: (skipped.suppress_comment ?? '').length > 20 }).toEqual({
        check: skipped.check_id,
        reason: true,
      });
  });

  it('has teeth: a writable root filesystem or privilege escalation is a finding', () => {
    const broken = scan(
      renderWith('default', {
        containerSecurityContext: { readOnlyRootFilesystem: false, allowPrivilegeEscalation: true },
      }),
    );
    const found = new Set((broken.results.failed_checks ?? []).map((f) => f.check_id));
    expect([...found]).toEqual(expect.arrayContaining(['CKV_K8S_22', 'CKV_K8S_20']));
  });
});
