/** The pods a rendered chart makes, read out of their objects: a Deployment's, a Job's, the Worker Controller's. */
import type { K8sObject } from './render';

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
export interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string } }>;
  ports?: Array<{ name: string; containerPort: number }>;
  startupProbe?: Record<string, unknown>;
  livenessProbe?: Record<string, unknown>;
  readinessProbe?: Record<string, unknown>;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
}
export interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    containers: Container[];
    securityContext?: Record<string, unknown>;
    automountServiceAccountToken?: boolean;
    terminationGracePeriodSeconds?: number;
    volumes?: Array<{ name: string; secret?: { secretName: string }; configMap?: { name: string } }>;
    topologySpreadConstraints?: Array<{ labelSelector: { matchLabels: Record<string, string> } }>;
  };
}

/** Kinds that hold a pod template at spec.template. */
const WITH_PODS = new Set(['Deployment', 'Job', 'WorkerDeployment']);

/** Every pod template of the render, with the object holding it. */
export const podTemplates = (objects: K8sObject[]) =>
  objects
    .filter((o) => WITH_PODS.has(o.kind))
    .map((o) => ({ owner: o, pod: (o.spec as { template: PodTemplate }).template }));

/** The pod template of one object. */
export const podOf = (object: K8sObject) => (object.spec as { template: PodTemplate }).template;

/** The one container of a pod template. */
export function containerOf(pod: PodTemplate): Container {
  expect(pod.spec.containers).toHaveLength(1);
  return pod.spec.containers[0]!;
}

/** The names of the variables a container takes from Secrets. */
export const secretNames = (container: Container) =>
  (container.env ?? []).filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name);

/**
 * The Worker Controller's WorkerDeployment as the Deployment it makes of it (its pod template under
 * a Deployment of the same name and annotations): what the Kubernetes schemas and the policy scan
 * can read, since neither knows the custom resource.
 */
export function asDeployment(workerDeployment: K8sObject): K8sObject {
  const pod = podOf(workerDeployment);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { ...workerDeployment.metadata },
    spec: {
      replicas: (workerDeployment.spec as { replicas?: number }).replicas,
      selector: { matchLabels: pod.metadata.labels },
      template: pod,
    },
  };
}
