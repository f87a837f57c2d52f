/**
 * `helm install` of deploy/helm/durable-mcp, with the objects it renders run on this host as a
 * cluster would run them (kubelet/): the pre-install hooks in weight order (the Jobs: migrations,
 * then the namespace; the Secret, ServiceAccount and ConfigMaps need nothing here), then the
 * release's Deployments, each replica a pod with an address of its own on the loopback network
 * (127.x.y.z, as a pod has its own IP; `0.0.0.0` in its environment is that address) and its
 * probes run, then any post-install hooks, as Helm runs them without `--wait`. A Service with a
 * selector (but a headless one) is a load balancer (test/support/rotation-proxy.ts) over its ready
 * pods' target port, as kube-proxy sends to the endpoints the readiness probes leave in it (by
 * request rather than by connection). Each container's command and environment are the rendered
 * ones (scripts/helm/rendered-processes.ts), its volumes and image pod-files.ts, its
 * securityContext pod-sandbox.ts.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { K8sObject } from '../../scripts/helm/chart-objects';
import { renderedProcesses } from '../../scripts/helm/rendered-processes';
import { render } from '../helm/render';
import { startRotationProxy, type RotationProxy } from '../support/rotation-proxy';
import { startPod, runJobPod, type NativePod, type PodDefinition } from './kubelet/native-pod';
import { imageRun, podVolumes, type ImageContext, type Volume } from './kubelet/pod-files';
import { securityOf, type SandboxSupport } from './kubelet/pod-sandbox';

interface Container {
  name: string;
  image: string;
  ports?: Array<{ name?: string; containerPort: number }>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  securityContext?: Record<string, unknown>;
}
interface PodSpec {
  containers: Container[];
  volumes?: Volume[];
  securityContext?: Record<string, unknown> & { fsGroup?: number };
  terminationGracePeriodSeconds?: number;
}
type Template = { metadata: { labels?: Record<string, string> }; spec: PodSpec };

export interface ReleaseOptions {
  /** The values, as a values file holds them. */
  values: object;
  /** The Secrets the values name that the chart does not make, each key to its value. */
  secrets: Record<string, Record<string, string>>;
  dataDir: string;
  image: ImageContext;
  sandbox: SandboxSupport;
}

export interface NativeRelease {
  objects: K8sObject[];
  /** Each Job run, in the order Helm ran it, with how many pods it took. */
  jobs: Array<{ name: string; hook: string; attempts: number }>;
  /** The pods of each Deployment, by its name. */
  pods: Record<string, NativePod[]>;
  /** The load balancer standing for each Service with a selector, by the Service's name. */
  services: Record<string, RotationProxy>;
  /** A new pod for one that was stopped, as its ReplicaSet makes one. */
  replace(pod: NativePod): NativePod;
  close(): Promise<void>;
}

const hookOf = (o: K8sObject) => o.metadata.annotations?.['helm.sh/hook'] ?? '';
const weightOf = (o: K8sObject) => Number(o.metadata.annotations?.['helm.sh/hook-weight'] ?? 0);
const templateOf = (o: K8sObject) => (o.spec as { template: Template }).template;

export async function installRelease(options: ReleaseOptions): Promise<NativeRelease> {
  mkdirSync(options.dataDir, { recursive: true });
  const valuesFile = path.join(options.dataDir, 'values.json');
  writeFileSync(valuesFile, JSON.stringify(options.values));
  const objects = render(['-f', valuesFile]);
  const prefix = `127.${randomInt(1, 255)}.${randomInt(1, 255)}`;
  let nextAddress = 2;
  const counts = new Map<string, number>();

  /** One pod of `owner` as the kubelet would start it. */
  const definition = (owner: K8sObject): PodDefinition => {
    const index = counts.get(owner.metadata.name) ?? 0;
    counts.set(owner.metadata.name, index + 1);
    const name = `${owner.metadata.name}-${index}`;
    const spec = templateOf(owner).spec;
    if (spec.containers.length !== 1) throw new Error(`${name}: one container per pod is run here`);
    const container = spec.containers[0]!;
    const podDir = path.join(options.dataDir, 'pods', name);
    mkdirSync(podDir, { recursive: true, mode: 0o755 });
    const volumes = podVolumes(podDir, spec.volumes ?? [], objects, options.secrets, spec.securityContext?.fsGroup);
    const rendered = renderedProcesses(objects, { secrets: options.secrets, volumes: volumes.folders }).find(
      (p) => p.owner === `${owner.kind}/${owner.metadata.name}` && p.container === container.name,
    )!;
    const image = imageRun(container.image, path.join(options.dataDir, 'images'), podDir, options.image);
    const tmp = container.volumeMounts?.find((m) => m.mountPath === '/tmp');
    const ip = `${prefix}.${nextAddress++}`;
    const env: Record<string, string> = {
      ...image.env,
      HOSTNAME: name,
      HOME: '/',
      ...(tmp ? { TMPDIR: volumes.folders[tmp.name]! } : {}),
      ...rendered.env,
    };
    for (const [key, value] of Object.entries(env)) if (value === '0.0.0.0') env[key] = ip;
    return {
      name,
      ip,
      argv: rendered.argv,
      env,
      cwd: image.cwd,
      probes: rendered.probes as PodDefinition['probes'],
      ...(rendered.preStop ? { preStop: rendered.preStop } : {}),
      terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds ?? 30,
      ports: Object.fromEntries((container.ports ?? []).flatMap((p) => (p.name ? [[p.name, p.containerPort]] : []))),
      security: securityOf(spec.securityContext, container.securityContext),
      writable: volumes.writable,
      sandbox: options.sandbox,
      logFile: path.join(podDir, 'container.log'),
    };
  };

  const jobs: NativeRelease['jobs'] = [];
  const runHooks = async (hook: string) => {
    const due = objects.filter((o) => hookOf(o).split(',').includes(hook)).sort((a, b) => weightOf(a) - weightOf(b));
    for (const job of due.filter((o) => o.kind === 'Job')) {
      const spec = job.spec as { backoffLimit?: number; activeDeadlineSeconds?: number };
      const { attempts } = await runJobPod(definition(job), spec);
      jobs.push({ name: job.metadata.name, hook, attempts });
    }
  };

  const services: Record<string, RotationProxy> = {};
  const pods: Record<string, NativePod[]> = {};
  // A headless Service (clusterIP None) is balanced by no one: its clients look its pods up.
  const serviceObjects = objects.filter(
    (o) => o.kind === 'Service' && !hookOf(o) && (o.spec as { clusterIP?: string }).clusterIP !== 'None',
  );
  const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
    Object.entries(selector).every(([k, v]) => labels[k] === v);
  /** Each Service's endpoints: the ready pods it selects, at the port its targetPort names. */
  const updateEndpoints = () => {
    for (const service of serviceObjects) {
      const spec = service.spec as { selector?: Record<string, string>; ports: Array<{ targetPort: string | number }> };
      const proxy = services[service.metadata.name];
      if (!proxy || !spec.selector) continue;
      const origins = Object.entries(pods).flatMap(([owner, list]) => {
        const labels = templateOf(objects.find((o) => o.metadata.name === owner && o.kind === 'Deployment')!).metadata
          .labels;
        if (!matches(spec.selector!, labels)) return [];
        return list
          .filter((pod) => pod.ready())
          .map((pod) => {
            const target = spec.ports[0]!.targetPort;
            const port = typeof target === 'number' ? target : pod.definition.ports[target];
            return `http://${pod.definition.ip}:${port}`;
          });
      });
      proxy.rotate(origins);
    }
  };
  const launch = (owner: K8sObject) => startPod(definition(owner), updateEndpoints);

  try {
    await runHooks('pre-install');
    for (const service of serviceObjects)
      if ((service.spec as { selector?: unknown }).selector)
        services[service.metadata.name] = await startRotationProxy();
    for (const deployment of objects.filter((o) => o.kind === 'Deployment' && !hookOf(o))) {
      const replicas = replicasOf(deployment, objects);
      pods[deployment.metadata.name] = Array.from({ length: replicas }, () => launch(deployment));
    }
    await runHooks('post-install');
  } catch (error) {
    await closeAll(pods, services);
    throw error;
  }

  return {
    objects,
    jobs,
    pods,
    services,
    replace(pod) {
      const owner = Object.keys(pods).find((name) => pods[name]!.includes(pod));
      if (!owner) throw new Error(`${pod.definition.name} is not a pod of this release`);
      const fresh = launch(objects.find((o) => o.kind === 'Deployment' && o.metadata.name === owner)!);
      pods[owner] = pods[owner]!.map((p) => (p === pod ? fresh : p));
      return fresh;
    },
    close: () => closeAll(pods, services),
  };
}

/** A Deployment's replicas: its own, or without them the HPA's minimum that scales it. */
function replicasOf(deployment: K8sObject, objects: K8sObject[]): number {
  const own = (deployment.spec as { replicas?: number }).replicas;
  if (own !== undefined) return own;
  const hpa = objects.find(
    (o) =>
      o.kind === 'HorizontalPodAutoscaler' &&
      (o.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === deployment.metadata.name,
  );
  return (hpa?.spec as { minReplicas?: number } | undefined)?.minReplicas ?? 1;
}

async function closeAll(pods: Record<string, NativePod[]>, services: Record<string, RotationProxy>): Promise<void> {
  await Promise.all(
    Object.values(pods)
      .flat()
      .map((pod) => pod.stop()),
  );
  await Promise.all(Object.values(services).map((proxy) => proxy.close()));
}
