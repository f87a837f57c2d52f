/**
 * The conventions of Temporal's charts the chart follows, as `helm template` renders them:
 * extraObjects (strings rendered as templates, or objects), additionalLabels and
 * additionalAnnotations on every object, names within Kubernetes' 63 characters under any release
 * name, every object in the release's namespace. Needs the helm binary (chart-tools.ts).
 */
import { describeWith } from './chart-tools';
import { NAMESPACE, renderWith } from './render';

describeWith(['helm'])('the chart: Temporal chart conventions', () => {
  it('renders extraObjects, a string as a template and an object as it is', () => {
    const objects = renderWith('default', {
      extraObjects: [
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-extra\ndata:\n  namespace: {{ .Release.Namespace }}',
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain-extra' }, data: { a: 'b' } },
      ],
    });
    expect(objects.find((o) => o.metadata.name === 'mcp-extra')?.data).toEqual({ namespace: NAMESPACE });
    expect(objects.find((o) => o.metadata.name === 'plain-extra')?.data).toEqual({ a: 'b' });
  });

  it('puts additionalLabels and additionalAnnotations on every object it makes, each in the release namespace', () => {
    const objects = renderWith('ingress', {
      additionalLabels: { team: 'mcp' },
      additionalAnnotations: { 'example.com/owner': 'mcp-team' },
      worker: { versioning: 'pinned' },
      temporal: { tls: { clientCertificate: false } },
    });
    expect(objects.length).toBeGreaterThan(15);
    for (const o of objects) {
      const where = `${o.kind} ${o.metadata.name}`;
      expect({ where, label: o.metadata.labels?.team }).toEqual({ where, label: 'mcp' });
      expect({ where, annotation: o.metadata.annotations?.['example.com/owner'] }).toEqual({
        where,
        annotation: 'mcp-team',
      });
      expect({ where, namespace: o.metadata.namespace }).toEqual({ where, namespace: NAMESPACE });
    }
  });

  it('keeps every name within 63 characters, and names what fullnameOverride says', () => {
    const long = renderWith('worker-controller', { fullnameOverride: 'x'.repeat(80) });
    for (const o of long)
      expect({ name: o.metadata.name, fits: o.metadata.name.length <= 63 }).toEqual({
        name: o.metadata.name,
        fits: true,
      });
    expect(long.find((o) => o.kind === 'Deployment')?.metadata.name).toMatch(/^x+-api$/);
  });
});
