/**
 * The processes a rendered Helm chart starts, as a kubelet would start them: each container's
 * command with `$(VAR)` expanded, its environment resolved (`envFrom` ConfigMaps, then `env`,
 * the later of two same names winning; `secretKeyRef`s from the rendered Secret or from the
 * Secrets given), its probes, preStop and grace. With `worker.versioning=pinned` the Worker
 * Controller's additions to each version's pods are applied first (its variables, and its mount
 * of the mutual TLS Secret), for a build id given. Paths inside mounted volumes (in the environment
 * and the command line) can be moved to local folders, as scripts/compose-native does for compose's
 * mounts. What the tests check a rendered environment with, and what a native run of the rendered
 * containers starts (test/compose-native/helm-chart.native.test.ts).
 */
import { CONTROLLER_TLS_DIR, CONTROLLER_TLS_VOLUME, type K8sObject } from './chart-objects';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  startupProbe?: unknown;
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
}
interface Pod {
  spec: { containers: Container[]; terminationGracePeriodSeconds?: number };
}

export interface RenderedProcess {
  /** The object's kind and name, and the container's name. */
  owner: string;
  container: string;
  /** The command line, `$(VAR)` expanded from the environment. */
  argv: string[];
  env: Record<string, string>;
  probes: { startup?: unknown; liveness?: unknown; readiness?: unknown };
  preStop?: string[];
  terminationGracePeriodSeconds?: number;
}

export interface ResolveOptions {
  /** Secrets by name, each key to its value: those the chart does not make (existingSecret). */
  secrets?: Record<string, Record<string, string>>;
  /** Local folders standing for mounted volumes, by volume name: env paths under a mount move there. */
  volumes?: Record<string, string>;
  /** The build id the Worker Controller would compute for a pinned worker's pods. */
  buildId?: string;
}

const byName = (objects: K8sObject[], kind: string) =>
  new Map(objects.filter((o) => o.kind === kind).map((o) => [o.metadata.name, o]));

/** What the Worker Controller appends to each container of a version's pods (its ApplyControllerPodSpecModifications). */
function controllerEnv(workerDeployment: K8sObject, connection: K8sObject, buildId: string): EnvVar[] {
  const spec = connection.spec as {
    hostPort: string;
    tls?: { serverName?: string };
    mutualTLSSecretRef?: { name: string };
    apiKeySecretRef?: { name: string; key: string };
  };
  const options = (workerDeployment.spec as { workerOptions: { temporalNamespace: string } }).workerOptions;
  const env: EnvVar[] = [
    { name: 'TEMPORAL_ADDRESS', value: spec.hostPort },
    { name: 'TEMPORAL_NAMESPACE', value: options.temporalNamespace },
    {
      name: 'TEMPORAL_DEPLOYMENT_NAME',
      value: `${workerDeployment.metadata.namespace}/${workerDeployment.metadata.name}`,
    },
    { name: 'TEMPORAL_WORKER_BUILD_ID', value: buildId },
  ];
  if (spec.tls?.serverName) env.push({ name: 'TEMPORAL_TLS_SERVER_NAME', value: spec.tls.serverName });
  if (spec.mutualTLSSecretRef)
    env.push(
      { name: 'TEMPORAL_TLS', value: 'true' },
      { name: 'TEMPORAL_TLS_CLIENT_KEY_PATH', value: `${CONTROLLER_TLS_DIR}/tls.key` },
      { name: 'TEMPORAL_TLS_CLIENT_CERT_PATH', value: `${CONTROLLER_TLS_DIR}/tls.crt` },
    );
  else if (spec.apiKeySecretRef)
    env.push({ name: 'TEMPORAL_API_KEY', valueFrom: { secretKeyRef: spec.apiKeySecretRef } });
  return env;
}

/** Kubernetes' `$(VAR)` expansion: a reference to an unknown variable stays as written, `$$` is `$`. */
export const expand = (text: string, env: Record<string, string>) =>
  text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string | undefined) =>
    name === undefined ? '$' : (env[name] ?? whole),
  );

export function renderedProcesses(objects: K8sObject[], options: ResolveOptions = {}): RenderedProcess[] {
  const configMaps = byName(objects, 'ConfigMap');
  const secrets = new Map<string, Record<string, string>>(Object.entries(options.secrets ?? {}));
  for (const [name, secret] of byName(objects, 'Secret')) {
    const data = (secret.data ?? {}) as Record<string, string>;
    secrets.set(
      name,
      Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()])),
    );
  }
  const connections = byName(objects, 'Connection');
  const secretValue = (ref: { name: string; key: string }) => {
    const value = secrets.get(ref.name)?.[ref.key];
    if (value === undefined) throw new Error(`no value for Secret ${ref.name} key ${ref.key}`);
    return value;
  };

  return objects
    .filter((o) => ['Deployment', 'Job', 'WorkerDeployment'].includes(o.kind))
    .flatMap((owner) => {
      const pod = (owner.spec as { template: Pod }).template;
      return pod.spec.containers.map((container): RenderedProcess => {
        const env: Record<string, string> = {};
        for (const source of container.envFrom ?? []) {
          const data = source.configMapRef
            ? ((configMaps.get(source.configMapRef.name)?.data ?? {}) as Record<string, string>)
            : (secrets.get(source.secretRef!.name) ?? {});
          Object.assign(env, data);
        }
        const mounts = [...(container.volumeMounts ?? [])];
        let vars = container.env ?? [];
        if (owner.kind === 'WorkerDeployment') {
          const ref = (owner.spec as { workerOptions: { connectionRef: { name: string } } }).workerOptions
            .connectionRef;
          const connection = connections.get(ref.name);
          if (!connection) throw new Error(`${owner.metadata.name}: no Connection ${ref.name}`);
          vars = [...vars, ...controllerEnv(owner, connection, options.buildId ?? 'build-id')];
          const tlsSecret = (connection.spec as { mutualTLSSecretRef?: { name: string } }).mutualTLSSecretRef;
          if (tlsSecret) mounts.push({ name: CONTROLLER_TLS_VOLUME, mountPath: CONTROLLER_TLS_DIR });
        }
        for (const v of vars) {
          if (v.value !== undefined) env[v.name] = expand(v.value, env);
          else if (v.valueFrom?.secretKeyRef) env[v.name] = secretValue(v.valueFrom.secretKeyRef);
          else if (v.valueFrom?.configMapKeyRef)
            env[v.name] = String(
              (configMaps.get(v.valueFrom.configMapKeyRef.name)?.data as Record<string, string>)[
                v.valueFrom.configMapKeyRef.key
              ],
            );
        }
        // Paths inside a mount (in the environment and on the command line) moved to the local
        // folder standing for its volume.
        const moved = (value: string) => {
          for (const mount of mounts) {
            const local = options.volumes?.[mount.name];
            if (local !== undefined && (value === mount.mountPath || value.startsWith(`${mount.mountPath}/`)))
              return `${local}${value.slice(mount.mountPath.length)}`;
          }
          return value;
        };
        for (const [name, value] of Object.entries(env)) env[name] = moved(value);
        return {
          owner: `${owner.kind}/${owner.metadata.name}`,
          container: container.name,
          argv: [...(container.command ?? []), ...(container.args ?? [])].map((part) => moved(expand(part, env))),
          env,
          probes: {
            startup: container.startupProbe,
            liveness: container.livenessProbe,
            readiness: container.readinessProbe,
          },
          ...(container.lifecycle?.preStop?.exec ? { preStop: container.lifecycle.preStop.exec.command } : {}),
          ...(pod.spec.terminationGracePeriodSeconds !== undefined
            ? { terminationGracePeriodSeconds: pod.spec.terminationGracePeriodSeconds }
            : {}),
        };
      });
    });
}

/** A command line that starts with `env NAME=value ...` as /usr/bin/env runs it: the program, with those set. */
export function afterEnv(process: Pick<RenderedProcess, 'argv' | 'env'>): {
  argv: string[];
  env: Record<string, string>;
} {
  if (process.argv[0] !== 'env') return { argv: process.argv, env: process.env };
  const env = { ...process.env };
  let at = 1;
  for (; at < process.argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(process.argv[at]!); at++) {
    const assignment = process.argv[at]!;
    env[assignment.slice(0, assignment.indexOf('='))] = assignment.slice(assignment.indexOf('=') + 1);
  }
  return { argv: process.argv.slice(at), env };
}
