/**
 * Where Helm is: HELM_PATH, else the build .ci/run caches (`<cache>/helm-<version>/helm`, from the Go
 * module helm.sh/helm/v4), else `helm` on PATH; undefined when none runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cacheDir } from '../compose-native/temporal-server-build';

/** The version .ci/run builds (and docs/deploying.md names). */
export const HELM_VERSION = 'v4.3.2';

export function findHelm(): string | undefined {
  const candidates = [process.env.HELM_PATH, path.join(cacheDir(), `helm-${HELM_VERSION}`, 'helm'), 'helm'];
  return candidates.find(
    (c) =>
      c !== undefined && (c === 'helm' || existsSync(c)) && spawnSync(c, ['version'], { stdio: 'ignore' }).status === 0,
  );
}
