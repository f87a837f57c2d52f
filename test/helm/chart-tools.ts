/**
 * The tools the chart's tests run, found where .ci/run installs them: Helm (built from its Go
 * module `helm.sh/helm/v4`, cached as `<cache>/helm-<version>/helm`; HELM_PATH or `helm` on PATH
 * otherwise), and from PyPI `kubernetes-validate` and `checkov`, in a virtual environment of their
 * own (`<cache>/chart-tools-venv`, CHART_TOOLS_VENV; else python3 and checkov on PATH). A test that
 * needs a missing tool fails in CI (`CI` set: .ci/run must have installed it) and is skipped
 * elsewhere, saying which tool and how to install it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cacheDir } from '../../scripts/compose-native/temporal-server-build';
import { findHelm, HELM_VERSION } from '../../scripts/helm/helm-binary';

export { HELM_VERSION } from '../../scripts/helm/helm-binary';
/** The Kubernetes version whose API schemas the rendered objects are validated against (kubernetes-validate's). */
export const KUBERNETES_VERSION = '1.37.0';

const works = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

export interface ChartTools {
  helm?: string;
  kubernetesValidate: boolean;
  checkov: boolean;
}

const venv = process.env.CHART_TOOLS_VENV ?? path.join(cacheDir(), 'chart-tools-venv');
const inVenv = (command: string) =>
  existsSync(path.join(venv, 'bin', command)) ? path.join(venv, 'bin', command) : command;
/** The Python that has kubernetes_validate, and the checkov command. */
export const PYTHON = inVenv('python3');
export const CHECKOV = inVenv('checkov');

export const tools: ChartTools = {
  helm: findHelm(),
  kubernetesValidate: works(PYTHON, ['-c', 'import kubernetes_validate']),
  checkov: works(CHECKOV, ['--version']),
};

const INSTALL: Record<keyof ChartTools, string> = {
  helm: `GOTOOLCHAIN=local GOBIN=<cache>/helm-${HELM_VERSION} go install helm.sh/helm/v4/cmd/helm@${HELM_VERSION} (or set HELM_PATH)`,
  kubernetesValidate: 'kubernetes-validate into <cache>/chart-tools-venv, as .ci/run does (its pinned version)',
  checkov: 'checkov into <cache>/chart-tools-venv, as .ci/run does (its pinned version)',
};

/**
 * `describe`, or `describe.skip` with a line saying why, for tests that need `needed`; in CI a
 * missing tool is never a skip: the suite runs and fails on it.
 */
export function describeWith(needed: Array<keyof ChartTools>): jest.Describe {
  const missing = needed.filter((tool) => !tools[tool]);
  if (missing.length === 0 || process.env.CI) return describe;
  process.stderr.write(
    `skipping the chart's ${needed.join(', ')} tests: install ${missing.map((t) => INSTALL[t]).join('; ')}\n`,
  );
  return describe.skip;
}

/** Runs helm with `args`; throws with its stderr when it fails. */
export function helm(args: string[]): string {
  if (!tools.helm) throw new Error(`no helm: ${INSTALL.helm}`);
  return execFileSync(tools.helm, args, { encoding: 'utf8', stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
}
