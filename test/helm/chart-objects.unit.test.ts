/**
 * The Helm chart's traffic objects as `helm template` renders them: scaling and disruption, the
 * Ingress, HTTPRoute and ServiceMonitors, and the NetworkPolicies (the Temporal side and the hook
 * Jobs: chart-temporal.unit.test.ts). Needs the helm binary (chart-tools.ts): skipped without it
 * outside CI.
 */
import { describeWith } from './chart-tools';
import { find, render, renderWith, valuesArgs, type K8sObject } from './render';
import { podOf } from './pods';

const rendered = (combination: Parameters<typeof valuesArgs>[0]) => render(valuesArgs(combination));
const selectorOf = (object: K8sObject) =>
  (object.spec as { selector: { matchLabels: Record<string, string> } }).selector;

describeWith(['helm'])('the chart: scaling, traffic, policies', () => {
  it('scales the API on CPU from 2 replicas, keeps one of each up in a disruption, and spreads them', () => {
    const objects = rendered('default');
    const api = find(objects, 'Deployment', 'api');
    expect((api.spec as { replicas?: number }).replicas).toBeUndefined();
    expect(find(objects, 'HorizontalPodAutoscaler', 'api').spec).toEqual(
      expect.objectContaining({
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: api.metadata.name },
        minReplicas: 2,
      }),
    );
    for (const name of ['api', 'worker']) {
      const pod = podOf(find(objects, 'Deployment', name));
      expect(pod.metadata.labels).toEqual(
        expect.objectContaining(selectorOf(find(objects, 'PodDisruptionBudget', name)).matchLabels),
      );
      const spread = pod.spec.topologySpreadConstraints ?? [];
      expect(spread.length).toBe(2);
      for (const constraint of spread)
        expect(pod.metadata.labels).toEqual(expect.objectContaining(constraint.labelSelector.matchLabels));
    }
    expect(objects.filter((o) => ['Ingress', 'HTTPRoute', 'ServiceMonitor'].includes(o.kind))).toEqual([]);
  });

  it('routes an Ingress and an HTTPRoute to the API, and scrapes both processes with the metrics token', () => {
    const objects = rendered('ingress');
    const service = find(objects, 'Service', 'api');
    const rule = (
      find(objects, 'Ingress', 'api').spec as {
        rules: Array<{ host: string; http: { paths: Array<{ backend: unknown }> } }>;
      }
    ).rules[0]!;
    expect(rule.host).toBe('mcp.example.com');
    expect(rule.http.paths[0]!.backend).toEqual({ service: { name: service.metadata.name, port: { name: 'http' } } });
    const route = find(objects, 'HTTPRoute', 'api').spec as { rules: Array<{ backendRefs: unknown[] }> };
    expect(route.rules[0]!.backendRefs).toEqual([{ name: service.metadata.name, port: 80 }]);
    for (const [name, port] of [
      ['api', 'http'],
      ['worker', 'metrics'],
    ]) {
      const monitor = find(objects, 'ServiceMonitor', name!).spec as { endpoints: Array<Record<string, unknown>> };
      expect(monitor.endpoints[0]).toEqual(
        expect.objectContaining({
          port,
          path: '/metrics',
          authorization: { type: 'Bearer', credentials: { name: 'mcp-durable-mcp', key: 'METRICS_TOKEN' } },
        }),
      );
    }
  });

  it('lets each pod reach only what it needs, and what its configuration turns on', () => {
    const egressPorts = (objects: K8sObject[], name: string) =>
      (
        find(objects, 'NetworkPolicy', name).spec as {
          egress: Array<{ ports: Array<{ port: number; protocol: string }> }>;
        }
      ).egress.map((rule) => [...new Set(rule.ports.map((p) => p.port))]);
    // ci/default-values.yaml: AUTH_MODE=oauth, so the API reaches the issuers (443).
    const plain = rendered('default');
    expect(egressPorts(plain, 'api')).toEqual([[53], [7233], [5432], [443]]);
    expect(egressPorts(plain, 'worker')).toEqual([[53], [7233], [5432]]);
    expect(egressPorts(plain, 'migrations')).toEqual([[53], [5432]]);
    expect(egressPorts(plain, 'temporal-setup')).toEqual([[53], [7233]]);
    expect((find(plain, 'NetworkPolicy', 'migrations').spec as { ingress: unknown[] }).ingress).toEqual([]);
    const open = renderWith('default', { config: { AUTH_MODE: 'off', ALLOW_UNAUTHENTICATED: 'true' } });
    expect(egressPorts(open, 'api')).toEqual([[53], [7233], [5432]]);
    // Webhooks: the worker alone reaches their receivers.
    const withWebhooks = rendered('ingress');
    expect(egressPorts(withWebhooks, 'worker')).toEqual([[53], [7233], [5432], [443]]);
    const postgres = (find(withWebhooks, 'NetworkPolicy', 'api').spec as { egress: Array<{ to?: unknown }> }).egress[2];
    expect(postgres?.to).toEqual([{ ipBlock: { cidr: '10.20.0.0/16' } }]);
    // Upstreams and traces: both processes.
    const more = renderWith('default', {
      config: { UPSTREAM_URL: 'https://shop.example.com/mcp', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' },
      networkPolicy: { upstreams: { to: [{ ipBlock: { cidr: '192.0.2.0/24' } }], ports: [8443] } },
    });
    expect(egressPorts(more, 'api')).toEqual([[53], [7233], [5432], [443], [8443], [4318]]);
    expect(egressPorts(more, 'worker')).toEqual([[53], [7233], [5432], [8443], [4318]]);
  });
});
