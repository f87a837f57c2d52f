/** Read-only resources: the runbook index, and one runbook per service through a URI template. */
import { defineResource, defineResourceTemplate } from '@durable-mcp/handlers';

const RUNBOOKS: Record<string, string> = {
  checkout: '1. Check the payment provider status page.\n2. Roll back the last deploy if error rates exceed 2%.',
  search: '1. Check index freshness.\n2. Fail over to the replica cluster.',
};

export const runbookIndex = defineResource({
  resource: { uri: 'runbooks://index', name: 'runbook-index', title: 'Runbook index', mimeType: 'text/plain' },
  read: (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: Object.keys(RUNBOOKS).join('\n') }] }),
});

export const runbook = defineResourceTemplate({
  template: {
    uriTemplate: 'runbooks://{service}',
    name: 'runbook',
    title: 'Runbook for a service',
    mimeType: 'text/markdown',
  },
  complete: { service: (value) => Object.keys(RUNBOOKS).filter((s) => s.startsWith(value)) },
  read(uri, { service }) {
    const text = RUNBOOKS[service ?? ''];
    if (!text) throw new Error(`No runbook for ${service}`);
    return { contents: [{ uri, mimeType: 'text/markdown', text: `# ${service}\n\n${text}` }] };
  },
});
