/**
 * What a kubelet puts in place before a pod's container starts, as folders of the pod's own: its
 * volumes and what its image holds.
 *
 * - `emptyDir`: an empty folder anyone may write (0777, as the kubelet makes it), group `fsGroup`
 *   with the set-group-id bit; the container's only writable folder under a read-only root.
 * - `configMap`, `secret`: the object's data as files (its `items`, else every key), mode
 *   `defaultMode` (0644 unless set), group `fsGroup`, read from the rendered objects and the
 *   Secrets given (those the chart does not make).
 * - The image: the service's (`durable-mcp`, built from this project's Dockerfile) is this working
 *   copy with `dist/` built, run in it as in /app, with this machine's `node` and the Dockerfile's
 *   `ENV`; Temporal's `temporalio/admin-tools` is the `temporal` CLI on `PATH`. Their programs are
 *   linked into a folder per image, so a uid other than root reaches them wherever they are.
 */
import { chmodSync, chownSync, copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { K8sObject } from '../../../scripts/helm/chart-objects';

export interface Volume {
  name: string;
  emptyDir?: Record<string, unknown>;
  configMap?: { name: string; items?: Array<{ key: string; path: string }>; defaultMode?: number };
  secret?: { secretName: string; items?: Array<{ key: string; path: string }>; defaultMode?: number };
}

export interface PodVolumes {
  /** Each volume's folder, by volume name. */
  folders: Record<string, string>;
  /** The emptyDir folders: the ones the container may write. */
  writable: string[];
}

/** Each of `volumes` as a folder under `podDir`. */
export function podVolumes(
  podDir: string,
  volumes: readonly Volume[],
  objects: readonly K8sObject[],
  secrets: Record<string, Record<string, string>>,
  fsGroup: number | undefined,
): PodVolumes {
  const folders: Record<string, string> = {};
  const writable: string[] = [];
  const group = (file: string) => {
    if (fsGroup !== undefined && process.getuid?.() === 0) chownSync(file, 0, fsGroup);
  };
  for (const volume of volumes) {
    const folder = path.join(podDir, 'volumes', volume.name);
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o755);
    folders[volume.name] = folder;
    if (volume.emptyDir) {
      group(folder);
      chmodSync(folder, fsGroup === undefined ? 0o777 : 0o2777);
      writable.push(folder);
      continue;
    }
    const source = volume.configMap ?? volume.secret;
    if (!source) throw new Error(`volume ${volume.name}: only emptyDir, configMap and secret volumes are run here`);
    const data = volume.configMap
      ? configMapData(objects, volume.configMap.name)
      : secretData(objects, secrets, volume.secret!.secretName);
    const items = source.items ?? Object.keys(data).map((key) => ({ key, path: key }));
    for (const item of items) {
      if (data[item.key] === undefined) throw new Error(`volume ${volume.name}: no key ${item.key}`);
      const file = path.join(folder, item.path);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, data[item.key]!);
      group(file);
      chmodSync(file, source.defaultMode ?? 0o644);
    }
  }
  return { folders, writable };
}

function configMapData(objects: readonly K8sObject[], name: string): Record<string, string> {
  const found = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name);
  if (!found) throw new Error(`no ConfigMap ${name} in the render`);
  return (found.data ?? {}) as Record<string, string>;
}

function secretData(
  objects: readonly K8sObject[],
  given: Record<string, Record<string, string>>,
  name: string,
): Record<string, string> {
  const rendered = objects.find((o) => o.kind === 'Secret' && o.metadata.name === name);
  if (rendered)
    return Object.fromEntries(
      Object.entries((rendered.data ?? {}) as Record<string, string>).map(([k, v]) => [
        k,
        Buffer.from(v, 'base64').toString(),
      ]),
    );
  if (!given[name]) throw new Error(`no Secret ${name}: neither rendered nor given`);
  return given[name];
}

export interface ImageContext {
  /** The working copy, with `dist/` built: the service image's /app. */
  projectRoot: string;
  /** The `temporal` CLI. */
  temporalCli: string;
}

export interface ImageRun {
  /** The image's working folder. */
  cwd: string;
  /** The image's `ENV`, `PATH` included. */
  env: Record<string, string>;
}

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const imageName = (image: string) => image.replace(/@.*$/, '').replace(/:[^:/]*$/, '');

/**
 * Where and with what environment `image` runs its command, its programs linked under
 * `imagesDir` (one folder per image, shared by its pods).
 */
export function imageRun(image: string, imagesDir: string, podDir: string, context: ImageContext): ImageRun {
  const admin = imageName(image) === 'temporalio/admin-tools';
  const bin = path.join(imagesDir, admin ? 'admin-tools' : 'service', 'bin');
  mkdirSync(bin, { recursive: true });
  for (let dir = bin; dir !== path.dirname(imagesDir); dir = path.dirname(dir)) chmodSync(dir, 0o755);
  if (admin) {
    linkInto(bin, 'temporal', context.temporalCli);
    return { cwd: podDir, env: { PATH: `${bin}:${SYSTEM_PATH}` } };
  }
  // Any other image of the chart is the service's own (image.repository, a registry's copy of it).
  linkInto(bin, 'node', process.execPath);
  return { cwd: context.projectRoot, env: { PATH: `${bin}:${SYSTEM_PATH}`, NODE_ENV: 'production' } };
}

/** A hard link to `source` (a copy across file systems), executable by anyone. */
function linkInto(dir: string, name: string, source: string): void {
  const target = path.join(dir, name);
  try {
    linkSync(source, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'EXDEV' && code !== 'EPERM') throw error;
    copyFileSync(source, target);
  }
  chmodSync(target, 0o755);
}
