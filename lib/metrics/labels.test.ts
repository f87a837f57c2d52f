// Pins that label values come from the handler set and the service's codes, never from a request.
import {
  defineResourceTemplate,
  defineTool,
  definePrompt,
  defineResource,
  type HandlerSet,
} from '@durable-mcp/handlers';
import { codeLabel, targetLabel, UNKNOWN_TARGET } from './labels';

const handlers: HandlerSet = {
  name: 'labels-test',
  tools: [defineTool({ tool: { name: 'greet', inputSchema: { type: 'object' } }, run: () => ({ content: [] }) })],
  prompts: [definePrompt({ prompt: { name: 'brief' }, run: () => ({ messages: [] }) })],
  resources: [defineResource({ resource: { uri: 'runbooks://index', name: 'index' }, read: () => ({ contents: [] }) })],
  resourceTemplates: [
    defineResourceTemplate({
      template: { uriTemplate: 'runbooks://{service}', name: 'runbook' },
      read: () => ({ contents: [] }),
    }),
  ],
};

describe('metric labels', () => {
  it('name a target by the handler serving it', () => {
    expect(targetLabel(handlers, 'tools/call', 'greet')).toBe('greet');
    expect(targetLabel(handlers, 'prompts/get', 'brief')).toBe('brief');
    expect(targetLabel(handlers, 'resources/read', 'runbooks://index')).toBe('runbooks://index');
  });

  it('name every URI under a resource template by the template, so new URIs add no label value', () => {
    for (const uri of ['runbooks://payments', 'runbooks://anything-at-all'])
      expect(targetLabel(handlers, 'resources/read', uri)).toBe('runbooks://{service}');
  });

  it('give every target the set lacks one value, whatever it is', () => {
    for (const target of ['nope', 'greet ', 'x'.repeat(1000), '']) {
      expect(targetLabel(handlers, 'tools/call', target)).toBe(UNKNOWN_TARGET);
    }
    expect(targetLabel(handlers, 'prompts/get', 'greet')).toBe(UNKNOWN_TARGET);
    expect(targetLabel(handlers, 'resources/read', 'file:///etc/passwd')).toBe(UNKNOWN_TARGET);
    expect(targetLabel(undefined, 'tools/call', 'greet')).toBe(UNKNOWN_TARGET);
  });

  it('keep the codes the service defines and fold any other into other', () => {
    expect(codeLabel(-32602)).toBe('-32602');
    expect(codeLabel(-32012)).toBe('-32012');
    expect(codeLabel(-32000)).toBe('-32000');
    expect(codeLabel(-31999)).toBe('other');
    expect(codeLabel(42)).toBe('other');
  });
});
