// Pins that label values come from the handler set and the service's codes, never from a request.
import { demoHandlers } from '../../handlers/demo';
import { codeLabel, targetLabel, UNKNOWN_TARGET } from './labels';

describe('metric labels', () => {
  it('name a target by the handler serving it', () => {
    expect(targetLabel(demoHandlers, 'tools/call', 'greet')).toBe('greet');
    const prompt = demoHandlers.prompts![0]!.prompt.name;
    expect(targetLabel(demoHandlers, 'prompts/get', prompt)).toBe(prompt);
  });

  it('name every URI under a resource template by the template, so new URIs add no label value', () => {
    const template = demoHandlers.resourceTemplates?.[0]?.template.uriTemplate;
    expect(template).toBeDefined();
    const uri = template!.replace(/\{[^}]+\}/g, 'anything-at-all');
    expect(targetLabel(demoHandlers, 'resources/read', uri)).toBe(template);
  });

  it('give every target the set lacks one value, whatever it is', () => {
    for (const target of ['nope', 'greet ', 'x'.repeat(1000), '']) {
      expect(targetLabel(demoHandlers, 'tools/call', target)).toBe(UNKNOWN_TARGET);
    }
    expect(targetLabel(demoHandlers, 'prompts/get', 'greet')).toBe(UNKNOWN_TARGET);
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
