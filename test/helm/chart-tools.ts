/**
 * The tools the chart's tests run, found where .ci/run installs them: Helm (built from its Go
 * module `helm.sh/helm/v4`, cached as `<cache>/helm-<version>/helm`; HELM_PATH or `helm` on PATH
 * otherwise), and from PyPI the `kubernetes_validate` module and `checkov`. A test that needs a
 * missing tool fails in CI (`CI` set: .ci/run must have installed it) and is skipped elsewhere,
 * saying which tool and how to install it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cacheDir } from '../../scripts/compose-native/temporal-server-build';

/** The versions .ci/run pins (and docs/deploying.md names). */
export const HELM_VERSION = 'v4.3.2';
export const KUBERNETES_VERSION = '1.37.0';

const works = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

function findHelm(): string | undefined {
  const candidates = [process.env.HELM_PATH, path.join(cacheDir(), `helm-${HELM_VERSION}`, 'helm'), 'helm'];
  return candidates.find((c) => c !== undefined && (c === 'helm' || existsSync(c)) && works(c, ['version']));
}

export interface ChartTools {
  helm?: string;
  kubernetesValidate: boolean;
  checkov: boolean;
}

export const tools: ChartTools = {
  helm: findHelm(),
  kubernetesValidate: works('python3', ['-c', 'import kubernetes_validate']),
  checkov: works('checkov', ['--version']),
};

const INSTALL: Record<keyof ChartTools, string> = {
  helm: `GOTOOLCHAIN=local GOBIN=<cache>/helm-${HELM_VERSION} go install helm.sh/helm/v4/cmd/helm@${HELM_VERSION} (or set HELM_PATH)`,
  kubernetesValidate: 'pip install kubernetes-validate (see .ci/run for the pinned version)',
  checkov: 'pip install checkov (see .ci/run for the pinned version)',
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
