/**
 * How a pod's securityContext becomes the command that confines its process (pod-sandbox.ts):
 * the credentials setpriv takes, the writable folders bound before the host's mounts turn
 * read-only, and nothing at all when the host cannot confine. The confinement itself is checked on
 * running processes by helm-chart.native.test.ts.
 */
import { sandboxed, setprivArgs, writableMounts, type PodSecurity } from './pod-sandbox';

const CHART_POD: PodSecurity = {
  runAsNonRoot: true,
  runAsUser: 10001,
  runAsGroup: 10001,
  fsGroup: 10001,
  readOnlyRootFilesystem: true,
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
};

describe('a pod securityContext as a confined process', () => {
  it('sets the uid, gid and fsGroup, empties the capability sets and forbids new privileges', () => {
    expect(setprivArgs(CHART_POD)).toEqual([
      '--reuid=10001',
      '--regid=10001',
      '--groups=10001',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
    ]);
    expect(setprivArgs({ runAsUser: 20, capabilities: { drop: ['NET_RAW'] } })).toEqual([
      '--reuid=20',
      '--regid=20',
      '--clear-groups',
    ]);
  });

  it('refuses runAsNonRoot without a non-root uid, as the kubelet does', () => {
    expect(() => setprivArgs({ runAsNonRoot: true })).toThrow(/runAsNonRoot/);
    expect(() => setprivArgs({ runAsNonRoot: true, runAsUser: 0 })).toThrow(/runAsNonRoot/);
  });

  it('binds the writable folders, then remounts every writable host mount read-only, then drops to the user', () => {
    const { command, args } = sandboxed('node', ['main.js'], CHART_POD, ['/pods/a/tmp'], { confined: true });
    expect(command).toBe('unshare');
    expect(args.slice(0, 5)).toEqual(['--mount', '--propagation', 'private', '/bin/sh', '-c']);
    // Every remount is a bind remount: the namespace's view turns read-only, never the host's file system.
    expect(args[5]).toContain('mount -o "remount,bind,ro$2" "$1"');
    const mounts = writableMounts();
    expect(mounts.some((m) => /^\/(proc|sys|dev)(\/|$)/.test(m.target))).toBe(false);
    expect(args.slice(7, 9 + 1 + mounts.length * 2)).toEqual([
      '1',
      '/pods/a/tmp',
      String(mounts.length),
      ...mounts.flatMap((m) => [m.target, m.flags.map((f) => `,${f}`).join('')]),
    ]);
    expect(args.slice(-10)).toEqual(['setpriv', ...setprivArgs(CHART_POD), '--', 'node', 'main.js']);
  });

  it('runs the command as it is where the host cannot confine it', () => {
    expect(sandboxed('node', ['main.js'], CHART_POD, ['/tmp/x'], { confined: false, reason: 'not root' })).toEqual({
      command: 'node',
      args: ['main.js'],
    });
  });
});
