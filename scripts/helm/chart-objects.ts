/** A Kubernetes object as a rendered chart holds it. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/**
 * The names the Temporal Worker Controller gives what it adds to a version's pods: a pod template
 * of the chart must not use them (a second volume of the same name makes the pod invalid).
 */
export const CONTROLLER_TLS_VOLUME = 'temporal-tls';
export const CONTROLLER_TLS_DIR = '/etc/temporal/tls';
