import type { HandlerSet } from '@durable-mcp/handlers';
import { serverCapabilities } from './catalog-methods';

const tools: HandlerSet = { name: 'tools', tools: [] };
const withPrompt: HandlerSet = {
  name: 'prompts',
  tools: [],
  prompts: [{ prompt: { name: 'review' }, run: () => ({ messages: [] }) }],
};

describe('the capabilities the service declares', () => {
  it('declares prompts and resources only where the set has some, while its lists are fixed', () => {
    expect(serverCapabilities(tools)).toEqual({ tools: {}, logging: {} });
    expect(serverCapabilities(withPrompt)).toEqual({ tools: {}, prompts: {}, logging: {} });
  });

  it('declares every list, each changing, in front of upstreams, whatever the local set has', () => {
    const changing = { listChanged: true };
    expect(serverCapabilities(tools, true)).toEqual({
      tools: changing,
      prompts: changing,
      resources: changing,
      logging: {},
    });
  });
});
