/**
 * A pod's securityContext given to a native process, as far as one Linux host can give it without
 * a container runtime. Run as root with `unshare` and `setpriv` (util-linux), each container's
 * process gets:
 *
 * - `runAsUser`, `runAsGroup`, `fsGroup`: its uid, gid and supplementary group (setpriv);
 *   `runAsNonRoot`: a uid of 0 is refused, as the kubelet refuses it;
 * - `allowPrivilegeEscalation: false`: the no_new_privs bit; `capabilities.drop: [ALL]`: empty
 *   inheritable and bounding sets (and, as a non-root uid, no effective or permitted ones);
 * - `readOnlyRootFilesystem: true`: a mount namespace of its own in which every mount of the host
 *   but /proc, /sys and /dev (a runtime's own, as in a container) is remounted read-only, and each
 *   writable volume (the emptyDir at /tmp) bind-mounted writable onto itself, at its own path.
 *
 * Not given: the seccomp profile (no runtime to load RuntimeDefault), the pod's own network,
 * PID and IPC namespaces, cgroup limits (requests and limits), the image's own filesystem (the
 * process sees the host's files, read-only). Without root, unshare or setpriv the process runs as
 * the test's user, unconfined, and `sandboxSupport` says why.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface PodSecurity {
  runAsUser?: number;
  runAsGroup?: number;
  fsGroup?: number;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
}

/** The container's securityContext over its pod's (a container's own setting wins, as in Kubernetes). */
export const securityOf = (pod: Record<string, unknown> = {}, container: Record<string, unknown> = {}): PodSecurity =>
  ({ ...pod, ...container }) as PodSecurity;

export type SandboxSupport = { confined: true } | { confined: false; reason: string };

const works = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/** Whether this host can confine a pod's process as above; when not, why. */
export function sandboxSupport(): SandboxSupport {
  if (process.getuid?.() !== 0) return { confined: false, reason: 'not run as root (setpriv and mount need it)' };
  for (const tool of ['setpriv', 'nsenter'])
    if (!works(tool, ['--version'])) return { confined: false, reason: `no ${tool} (util-linux)` };
  if (!works('unshare', ['--mount', '--propagation', 'private', 'true']))
    return { confined: false, reason: 'unshare --mount fails here (no CAP_SYS_ADMIN?)' };
  return { confined: true };
}

/** `\040` and the like in /proc/self/mountinfo, as the characters they stand for. */
const unescape = (field: string) =>
  field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

/** The host's writable mounts a read-only root filesystem covers, each with the flags it keeps. */
export function writableMounts(): Array<{ target: string; flags: string[] }> {
  const kept = new Set(['nosuid', 'nodev', 'noexec', 'noatime', 'nodiratime', 'relatime']);
  const seen = new Map<string, string[]>();
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const fields = line.split(' ');
    if (fields.length < 6) continue;
    const target = unescape(fields[4]!);
    const options = fields[5]!.split(',');
    if (/^\/(proc|sys|dev)(\/|$)/.test(target) || options.includes('ro')) continue;
    seen.set(
      target,
      options.filter((o) => kept.has(o)),
    );
  }
  return [...seen].map(([target, flags]) => ({ target, flags }));
}

// $1: how many writable folders follow, then them; then how many mounts, each as target and
// flags; then the command. `bind` in every remount: only this namespace's view of the mount turns
// read-only, never the filesystem itself (a remount without it would reach the host's).
const SCRIPT = `set -e
n=$1; shift
while [ "$n" -gt 0 ]; do mount --bind "$1" "$1"; shift; n=$((n - 1)); done
n=$1; shift
while [ "$n" -gt 0 ]; do mount -o "remount,bind,ro$2" "$1"; shift 2; n=$((n - 1)); done
exec "$@"`;

/** setpriv's arguments for the securityContext's user, groups, capabilities and no_new_privs. */
export function setprivArgs(security: PodSecurity): string[] {
  if (security.runAsNonRoot && (security.runAsUser ?? 0) === 0)
    throw new Error('runAsNonRoot with no runAsUser (or 0): the kubelet would refuse to start this container');
  const user =
    security.runAsUser === undefined
      ? []
      : [
          `--reuid=${security.runAsUser}`,
          `--regid=${security.runAsGroup ?? security.runAsUser}`,
          security.fsGroup === undefined ? '--clear-groups' : `--groups=${security.fsGroup}`,
        ];
  const dropped = security.capabilities?.drop?.includes('ALL') ? ['--inh-caps=-all', '--bounding-set=-all'] : [];
  const noNewPrivileges = security.allowPrivilegeEscalation === false ? ['--no-new-privs'] : [];
  return [...user, ...dropped, ...noNewPrivileges];
}

/**
 * `command args` as the container's process: confined as its securityContext says when `support`
 * allows, with `writable` (its emptyDir folders) the only folders it may write; else unchanged.
 */
export function sandboxed(
  command: string,
  args: readonly string[],
  security: PodSecurity,
  writable: readonly string[],
  support: SandboxSupport,
): { command: string; args: string[] } {
  if (!support.confined) return { command, args: [...args] };
  const readOnly = security.readOnlyRootFilesystem === true;
  const mounts = readOnly ? writableMounts() : [];
  return {
    command: 'unshare',
    args: [
      ...['--mount', '--propagation', 'private', '/bin/sh', '-c', SCRIPT, 'pod-sandbox'],
      ...[String(readOnly ? writable.length : 0), ...(readOnly ? writable : [])],
      ...[String(mounts.length), ...mounts.flatMap((m) => [m.target, m.flags.map((f) => `,${f}`).join('')])],
      ...['setpriv', ...setprivArgs(security), '--', command, ...args],
    ],
  };
}

/**
 * A command run inside a running container, as `kubectl exec` runs one: in its mount namespace
 * (`nsenter`) with its credentials, when confined; else as it is.
 */
export function inContainer(
  pid: number,
  argv: readonly string[],
  security: PodSecurity,
  support: SandboxSupport,
): { command: string; args: string[] } {
  if (!support.confined) return { command: argv[0]!, args: argv.slice(1) };
  return {
    command: 'nsenter',
    args: [`--target=${pid}`, '--mount', '--', 'setpriv', ...setprivArgs(security), '--', ...argv],
  };
}
