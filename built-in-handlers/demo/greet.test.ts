// Pins the greet demo tool end to end through executeHandler: ask for a name, greet on accept, stop on decline/cancel.
import { executeHandler } from '../../activities/handler-execution';
import type { ExchangeInput } from '../../lib/exchange/types';
import type { HandlerContext, HandlerSet } from '@durable-mcp/handlers';
import { testContext } from '@durable-mcp/testing';
import { unknownTarget } from '../../lib/protocol/error-catalog';
import { INTERNAL_ERROR, INVALID_PARAMS } from '../../lib/protocol/json-rpc-codes';
import { greet } from './greet';

function ctx(inputResponses: Record<string, unknown> = {}, round = 1): HandlerContext {
  return testContext({ inputResponses, round, clientCapabilities: { elicitation: {} } });
}

function exchange(
  args: Record<string, unknown> = {},
  overrides: Partial<ExchangeInput['request']> = {},
): ExchangeInput {
  return {
    exchangeId: 'ex-1',
    era: 'modern',
    request: { method: 'tools/call', target: 'greet', params: { name: 'greet', arguments: args }, ...overrides },
    principal: 'alice',
    clientCapabilities: { elicitation: {} },
    roundTimeoutMs: 600_000,
    maxRounds: 8,
  };
}

const handlers: HandlerSet = { name: 'test', tools: [greet] };
const accepted = (name: unknown) => ({ name: { action: 'accept', content: { name } } });

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content;
  expect(content).toHaveLength(1);
  expect(content?.[0]?.type).toBe('text');
  return content?.[0]?.text ?? '';
}

describe('greet.run', () => {
  it('returns an input_required result with a form elicitation under "name" when there are no answers', async () => {
    const result = (await greet.run({}, ctx())) as Record<string, unknown>;
    expect(result.resultType).toBe('input_required');
    const inputRequests = result.inputRequests as Record<string, { method: string; params: Record<string, unknown> }>;
    expect(Object.keys(inputRequests)).toEqual(['name']);
    expect(inputRequests.name?.method).toBe('elicitation/create');
    expect(inputRequests.name?.params.message).toBe('What is your name?');
    expect(inputRequests.name?.params.mode).not.toBe('url');
    expect(inputRequests.name?.params.requestedSchema).toMatchObject({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' } },
    });
  });

  it('greets by name with the default greeting when the elicitation was accepted', async () => {
    const result = await greet.run({}, ctx(accepted('Ada'), 2));
    expect(textOf(result)).toBe('Hello, Ada!');
    expect((result as Record<string, unknown>).resultType).toBeUndefined();
  });

  it('uses the trimmed greeting argument when one is given', async () => {
    expect(textOf(await greet.run({ greeting: '  Howdy ' }, ctx(accepted('Ada'), 2)))).toBe('Howdy, Ada!');
  });

  it.each(['decline', 'cancel'])('ends without asking again when the elicitation answer is %s', async (action) => {
    const result = await greet.run({}, ctx({ name: { action } }, 2));
    expect((result as Record<string, unknown>).resultType).toBeUndefined();
    expect((result as Record<string, unknown>).inputRequests).toBeUndefined();
    expect(textOf(result)).toBe('Hello, whoever you are.');
  });

  it('asks again when an accepted answer carries no usable name', async () => {
    const result = (await greet.run({}, ctx(accepted(42), 2))) as Record<string, unknown>;
    expect(result.resultType).toBe('input_required');
    expect(Object.keys(result.inputRequests as object)).toEqual(['name']);
  });
});

describe('executeHandler with the greet tool', () => {
  it('turns the first round into an ask carrying the name elicitation', async () => {
    const outcome = await executeHandler(handlers, exchange(), ctx());
    expect(outcome.kind).toBe('ask');
    if (outcome.kind !== 'ask') return;
    expect(Object.keys(outcome.inputRequests)).toEqual(['name']);
    expect(outcome.inputRequests.name).toMatchObject({ method: 'elicitation/create' });
    expect(outcome.sealedHandlerState).toBeUndefined();
  });

  it('turns an accepted answer into a complete result greeting by name', async () => {
    const outcome = await executeHandler(handlers, exchange({ greeting: 'Hi' }), ctx(accepted('Grace'), 2));
    expect(outcome).toEqual({ kind: 'complete', result: { content: [{ type: 'text', text: 'Hi, Grace!' }] } });
  });

  it('turns a declined answer into a complete result, not another ask', async () => {
    const outcome = await executeHandler(handlers, exchange(), ctx({ name: { action: 'decline' } }, 2));
    expect(outcome).toEqual({
      kind: 'complete',
      result: { content: [{ type: 'text', text: 'Hello, whoever you are.' }] },
    });
  });

  it('answers a tool this worker lacks (version skew) with the error the API refuses unknown tools with', async () => {
    const outcome = await executeHandler(handlers, exchange({}, { target: 'nope' }), ctx());
    expect(outcome).toEqual({
      kind: 'error',
      error: { code: INVALID_PARAMS, message: 'Unknown tool: nope', data: { path: 'params.name' } },
    });
    expect(outcome).toEqual({ kind: 'error', error: unknownTarget('tools/call', 'nope').toJson() });
  });

  it('answers a prompt the set does not have with the unknown-prompt error', async () => {
    const outcome = await executeHandler(handlers, exchange({}, { method: 'prompts/get' }), ctx());
    expect(outcome).toEqual({
      kind: 'error',
      error: { code: INVALID_PARAMS, message: 'Unknown prompt: greet', data: { path: 'params.name' } },
    });
  });

  it('turns a throwing prompt into an internal-error outcome', async () => {
    const throwing: HandlerSet = {
      name: 'throwing',
      tools: [],
      prompts: [
        {
          prompt: { name: 'greet' },
          run: () => {
            throw new Error('boom');
          },
        },
      ],
    };
    const outcome = await executeHandler(throwing, exchange({}, { method: 'prompts/get' }), ctx());
    expect(outcome).toEqual({ kind: 'error', error: { code: INTERNAL_ERROR, message: 'boom' } });
  });

  it('turns a throwing tool into an isError result instead of failing', async () => {
    const throwing: HandlerSet = {
      name: 'throwing',
      tools: [
        {
          tool: { name: 'greet', inputSchema: { type: 'object' } },
          run: () => {
            throw new Error('boom');
          },
        },
      ],
    };
    const outcome = await executeHandler(throwing, exchange(), ctx());
    expect(outcome).toEqual({ kind: 'complete', result: { content: [{ type: 'text', text: 'boom' }], isError: true } });
  });

  it('ends a handler that runs past its timeout with an internal-error outcome', async () => {
    const hanging: HandlerSet = {
      name: 'hanging',
      tools: [{ tool: { name: 'greet', inputSchema: { type: 'object' } }, run: () => new Promise(() => undefined) }],
    };
    const outcome = await executeHandler(hanging, exchange(), ctx(), 50);
    expect(outcome).toMatchObject({
      kind: 'error',
      error: { code: INTERNAL_ERROR, message: expect.stringContaining('within 50 ms') },
    });
  });
});
