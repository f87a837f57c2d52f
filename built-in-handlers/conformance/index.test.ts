// Pins the conformance set as the suite lists and calls it: names and order, the fields every listed item
// needs, the legacy and diagnostic tools' rounds, and the prompts, resources and completers.
import { executeHandler } from '../../activities/handler-execution';
import type { ExchangeInput } from '../../lib/exchange/types';
import { type HandlerContext } from '@durable-mcp/handlers';
import { findPrompt, findResource, findTool } from '../../lib/handler-set/lookup';
import { testContext } from '@durable-mcp/testing';
import { builtInHandlerSet } from '..';
import { conformanceHandlers as set } from '.';

const ALL_CAPS = { elicitation: {}, sampling: {}, roots: {} };

function ctx(inputResponses: Record<string, unknown> = {}, overrides: Partial<HandlerContext> = {}): HandlerContext {
  return testContext({ inputResponses, clientCapabilities: ALL_CAPS, ...overrides });
}

function exchange(
  method: ExchangeInput['request']['method'],
  target: string,
  args: Record<string, unknown> = {},
): ExchangeInput {
  const params = method === 'resources/read' ? { uri: target } : { name: target, arguments: args };
  return {
    exchangeId: 'ex-1',
    era: 'modern',
    request: { method, target, params },
    principal: 'alice',
    clientCapabilities: ALL_CAPS,
    roundTimeoutMs: 600_000,
    maxRounds: 8,
  };
}

const tool = (name: string) => findTool(set, name)!;
const textOf = (result: unknown) => (result as { content: Array<{ text?: string }> }).content[0]?.text ?? '';
const askKeys = (result: unknown) => Object.keys((result as { inputRequests: object }).inputRequests);

describe('the conformance handler set', () => {
  it('is the built-in set named conformance', () => {
    expect(builtInHandlerSet('conformance')).toBe(set);
    expect(set.name).toBe('conformance');
  });

  it('lists the suite tools in a stable order, each with a description and an object input schema', () => {
    expect(set.tools.map((handler) => handler.tool.name)).toEqual([
      'test_simple_text',
      'test_image_content',
      'test_audio_content',
      'test_embedded_resource',
      'test_multiple_content_types',
      'test_error_handling',
      'test_tool_with_progress',
      'test_tool_with_logging',
      'test_sampling',
      'test_elicitation',
      'test_elicitation_sep1034_defaults',
      'test_elicitation_sep1330_enums',
      'test_missing_capability',
      'test_streaming_elicitation',
      'test_logging_tool',
      'test_input_required_result_elicitation',
      'test_input_required_result_sampling',
      'test_input_required_result_list_roots',
      'test_input_required_result_request_state',
      'test_input_required_result_multiple_inputs',
      'test_input_required_result_multi_round',
      'test_input_required_result_tampered_state',
      'test_input_required_result_capabilities',
      'json_schema_2020_12_tool',
      'test_reconnection',
      'test_custom_header_params',
      'greet',
      'slow_compute',
      'failing_job',
      'protocol_error_job',
      'confirm_delete',
      'multi_input',
      'test_tool_with_task',
    ]);
    for (const { tool: listed } of set.tools) {
      expect(listed.description).toEqual(expect.any(String));
      expect(listed.inputSchema).toMatchObject({ type: 'object', properties: expect.any(Object) });
    }
  });

  it('lists the suite prompts and resources with the fields the suite checks', () => {
    expect(set.prompts?.map((handler) => handler.prompt.name)).toEqual([
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
      'test_input_required_result_prompt',
    ]);
    for (const { prompt } of set.prompts ?? []) expect(prompt.description).toEqual(expect.any(String));
    expect(set.resources?.map(({ resource }) => [resource.uri, resource.name])).toEqual([
      ['test://static-text', 'static-text'],
      ['test://static-binary', 'static-binary'],
      ['test://watched-resource', 'watched-resource'],
    ]);
    expect(set.resourceTemplates?.map(({ template }) => template.uriTemplate)).toEqual(['test://template/{id}/data']);
  });

  // protocol_error_job ends its call with a JSON-RPC error by design (task-tools.test.ts).
  const rounds = set.tools.map((handler) => handler.tool.name).filter((name) => name !== 'protocol_error_job');
  it.each(rounds)('%s runs its first round without throwing', async (name) => {
    const result = (await tool(name).run({ prompt: 'p', message: 'm' }, ctx())) as Record<string, unknown>;
    expect(result.resultType === 'input_required' || Array.isArray(result.content)).toBe(true);
  });
});

describe('content, progress and logging tools', () => {
  it('returns the exact fixtures', async () => {
    expect(await tool('test_simple_text').run({}, ctx())).toEqual({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    });
    expect(await tool('test_multiple_content_types').run({}, ctx())).toMatchObject({
      content: [
        { type: 'text' },
        { type: 'image', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'test://mixed-content-resource' } },
      ],
    });
  });

  it('fails test_error_handling as an isError result, not a JSON-RPC error', async () => {
    const outcome = await executeHandler(set, exchange('tools/call', 'test_error_handling'), ctx());
    expect(outcome).toEqual({
      kind: 'complete',
      result: {
        content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
        isError: true,
      },
    });
  });

  it('reports progress 0, 50, 100 of 100, and three info logs, before completing', async () => {
    const progress = jest.fn(async () => undefined);
    const sendLog = jest.fn(async () => undefined);
    expect(textOf(await tool('test_tool_with_progress').run({}, ctx({}, { progress })))).toBe(
      'Progress test completed',
    );
    expect(progress.mock.calls).toEqual([
      [0, 100],
      [50, 100],
      [100, 100],
    ]);
    await tool('test_tool_with_logging').run({}, ctx({}, { sendLog }));
    expect(sendLog.mock.calls).toEqual([
      ['info', 'Tool execution started'],
      ['info', 'Tool processing data'],
      ['info', 'Tool execution completed'],
    ]);
  });
});

describe('legacy and diagnostic tools', () => {
  const sampled = (text: string) => ({
    role: 'assistant',
    content: { type: 'text', text },
    model: 'test-model',
    stopReason: 'endTurn',
  });

  it('test_sampling samples the prompt argument, and returns the answer', async () => {
    const ask = (await tool('test_sampling').run({ prompt: 'Test prompt' }, ctx())) as {
      inputRequests: Record<string, { params: unknown }>;
    };
    expect(ask.inputRequests.sampling?.params).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Test prompt' } }],
      maxTokens: 100,
    });
    expect(textOf(await tool('test_sampling').run({ prompt: 'Test prompt' }, ctx({ sampling: sampled('hi') })))).toBe(
      'LLM response: hi',
    );
    expect(
      askKeys(await tool('test_sampling').run({ prompt: 'Test prompt' }, ctx({ sampling: { oops: true } }))),
    ).toEqual(['sampling']);
  });

  it('test_elicitation shows the message and reports the action and content', async () => {
    const ask = (await tool('test_elicitation').run({ message: 'Who are you?' }, ctx())) as {
      inputRequests: Record<string, { params: Record<string, unknown> }>;
    };
    expect(ask.inputRequests.user_info?.params).toMatchObject({
      message: 'Who are you?',
      requestedSchema: { required: ['username', 'email'] },
    });
    const answer = { user_info: { action: 'accept', content: { username: 'u', email: 'e@x' } } };
    expect(textOf(await tool('test_elicitation').run({ message: 'Who are you?' }, ctx(answer)))).toBe(
      'User response: action=accept, content={"username":"u","email":"e@x"}',
    );
  });

  it('SEP-1034 and SEP-1330 forms carry their defaults and every enum variant', async () => {
    const schemaOf = async (name: string, key: string) =>
      (
        (await tool(name).run({}, ctx())) as {
          inputRequests: Record<string, { params: { requestedSchema: { properties: Record<string, unknown> } } }>;
        }
      ).inputRequests[key]?.params.requestedSchema.properties;
    expect(await schemaOf('test_elicitation_sep1034_defaults', 'defaults')).toEqual({
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
      verified: { type: 'boolean', default: true },
    });
    expect(await schemaOf('test_elicitation_sep1330_enums', 'enums')).toMatchObject({
      untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
      titledSingle: { type: 'string', oneOf: expect.arrayContaining([{ const: 'value1', title: 'First Option' }]) },
      legacyEnum: { enumNames: ['Option One', 'Option Two', 'Option Three'] },
      untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
      titledMulti: {
        type: 'array',
        items: { anyOf: expect.arrayContaining([{ const: 'value3', title: 'Third Choice' }]) },
      },
    });
    const answer = { enums: { action: 'accept', content: { untitledSingle: 'option1' } } };
    expect(textOf(await tool('test_elicitation_sep1330_enums').run({}, ctx(answer)))).toMatch(
      /^Elicitation completed: action=accept/,
    );
  });

  it('test_missing_capability asks for sampling even when the client did not declare it', async () => {
    expect(askKeys(await tool('test_missing_capability').run({}, ctx({}, { clientCapabilities: {} })))).toEqual([
      'sampling',
    ]);
    expect(textOf(await tool('test_missing_capability').run({}, ctx({ sampling: sampled('hello') })))).toBe(
      'Sampled: hello',
    );
  });

  it('test_streaming_elicitation asks once and completes on the answer', async () => {
    expect(askKeys(await tool('test_streaming_elicitation').run({}, ctx()))).toEqual(['confirm']);
    expect(
      textOf(
        await tool('test_streaming_elicitation').run({}, ctx({ confirm: { action: 'accept', content: { ok: true } } })),
      ),
    ).toMatch(/accept/);
  });

  it('test_logging_tool logs once and returns', async () => {
    const sendLog = jest.fn(async () => undefined);
    expect((await tool('test_logging_tool').run({}, ctx({}, { sendLog }))) as object).not.toHaveProperty('resultType');
    expect(sendLog).toHaveBeenCalledWith('info', 'Logging tool ran');
  });
});

describe('prompts', () => {
  const prompt = (name: string) => findPrompt(set, name)!;

  it('substitutes both arguments, and completes arg1 by prefix', async () => {
    const result = (await prompt('test_prompt_with_arguments').run({ arg1: 'hello', arg2: 'world' }, ctx())) as {
      messages: Array<{ content: { text: string } }>;
    };
    expect(result.messages[0]?.content.text).toBe("Prompt with arguments: arg1='hello', arg2='world'");
    expect(await prompt('test_prompt_with_arguments').complete?.arg1?.('test', {})).toEqual([
      'test1',
      'test2',
      'testing',
    ]);
  });

  it('returns the plain and image prompts', async () => {
    expect(await prompt('test_simple_prompt').run({}, ctx())).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    });
    expect(await prompt('test_prompt_with_image').run({}, ctx())).toMatchObject({
      messages: [
        { content: { type: 'image', mimeType: 'image/png' } },
        { content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    });
  });

  it('embeds the resource it is given', async () => {
    const result = await prompt('test_prompt_with_embedded_resource').run({ resourceUri: 'test://x' }, ctx());
    expect(result).toMatchObject({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: 'test://x', mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    });
  });

  it('test_input_required_result_prompt asks for the context, then writes it into the message', async () => {
    const run = (responses?: Record<string, unknown>) =>
      prompt('test_input_required_result_prompt').run({}, ctx(responses));
    const ask = (await run()) as {
      resultType: string;
      inputRequests: Record<string, { method: string; params: Record<string, unknown> }>;
    };
    expect(ask.resultType).toBe('input_required');
    expect(ask.inputRequests.user_context).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'What context should the prompt use?' },
    });
    const done = (await run({ user_context: { action: 'accept', content: { context: 'test context' } } })) as {
      messages: Array<{ content: { text: string } }>;
    };
    expect(done.messages[0]?.content.text).toContain('test context');
    expect(askKeys(await run({ user_context: { action: 'accept', content: {} } }))).toEqual(['user_context']);
  });
});

describe('resources', () => {
  it('reads the static text and binary resources', async () => {
    const outcome = await executeHandler(set, exchange('resources/read', 'test://static-text'), ctx());
    expect(outcome).toEqual({
      kind: 'complete',
      result: {
        contents: [
          {
            uri: 'test://static-text',
            mimeType: 'text/plain',
            text: 'This is the content of the static text resource.',
          },
        ],
      },
    });
    expect(await executeHandler(set, exchange('resources/read', 'test://static-binary'), ctx())).toMatchObject({
      kind: 'complete',
      result: { contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: expect.any(String) }] },
    });
  });

  it('substitutes the template id into what it reads, and completes ids by prefix', async () => {
    const outcome = await executeHandler(set, exchange('resources/read', 'test://template/123/data'), ctx());
    expect(outcome).toEqual({
      kind: 'complete',
      result: {
        contents: [
          {
            uri: 'test://template/123/data',
            mimeType: 'application/json',
            text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
          },
        ],
      },
    });
    const match = findResource(set, 'test://template/1/data');
    expect(match?.kind === 'template' && (await match.handler.complete?.id?.('1', {}))).toEqual(['1', '123']);
  });
});
