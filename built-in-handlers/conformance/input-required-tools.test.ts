// Pins the stateless SEP-2322 fixtures' round logic: the first ask's shape and keys, completion on a
// well-formed answer, another ask on a missing or malformed one, and asks that follow the client's capabilities.
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { HandlerContext } from '@durable-mcp/handlers';
import { testContext } from '@durable-mcp/testing';
import { expectAsk, expectText } from './ask-assertions';
import {
  inputRequiredCapabilities,
  inputRequiredElicitation,
  inputRequiredListRoots,
  inputRequiredSampling,
} from './input-required-tools';

function ctx(inputResponses: Record<string, unknown> = {}, clientCapabilities?: ClientCapabilities): HandlerContext {
  return testContext({ inputResponses, ...(clientCapabilities ? { clientCapabilities } : {}) });
}

const elicited = (content: Record<string, unknown>) => ({ action: 'accept', content });
const sampled = (text: string) => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'test-model',
  stopReason: 'endTurn',
});
const roots = { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] };

describe('test_input_required_result_elicitation', () => {
  const run = (responses?: Record<string, unknown>) => inputRequiredElicitation.run({}, ctx(responses));

  it('asks for the name under "user_name" on the first round', async () => {
    const ask = expectAsk(await run(), ['user_name']);
    expect(ask.inputRequests.user_name).toEqual({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'What is your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
    });
    expect(ask.requestState).toBeUndefined();
  });

  it('greets by name once the form is accepted', async () => {
    expect(expectText(await run({ user_name: elicited({ name: 'Alice' }) }))).toBe('Hello, Alice!');
  });

  it('ignores answers under keys it did not ask for', async () => {
    const responses = { user_name: elicited({ name: 'Alice' }), unknown_extra_key: elicited({ foo: 'bar' }) };
    expect(expectText(await run(responses))).toBe('Hello, Alice!');
  });

  it.each([
    ['an answer under the wrong key', { wrong_key: elicited({ data: 'wrong' }) }],
    ['a number instead of an answer', { user_name: 12345 }],
    ['null instead of an answer', { user_name: null }],
    ['an accepted form without the name', { user_name: elicited({}) }],
    ['an accepted form whose name is not a string', { user_name: elicited({ name: 42 }) }],
    ['a sampling result instead of a form answer', { user_name: sampled('Alice') }],
  ])('asks again on %s', async (_label, responses) => {
    expectAsk(await run(responses), ['user_name']);
  });

  it.each(['decline', 'cancel'])('completes without a name when the answer is %s', async (action) => {
    expect(expectText(await run({ user_name: { action } }))).toMatch(/declined or cancelled/);
  });
});

describe('test_input_required_result_sampling', () => {
  const run = (responses?: Record<string, unknown>) => inputRequiredSampling.run({}, ctx(responses));

  it('asks the model about the capital of France under "capital_question"', async () => {
    const ask = expectAsk(await run(), ['capital_question']);
    expect(ask.inputRequests.capital_question).toEqual({
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
        maxTokens: 100,
      },
    });
  });

  it("completes with the model's text", async () => {
    expect(expectText(await run({ capital_question: sampled('The capital of France is Paris.') }))).toContain(
      'The capital of France is Paris.',
    );
  });

  it.each([
    ['no answer', {}],
    ['an answer without content', { capital_question: { role: 'assistant', model: 'm' } }],
    [
      'an answer without text',
      { capital_question: { role: 'assistant', content: { type: 'image', data: 'x', mimeType: 'image/png' } } },
    ],
    ['a form answer', { capital_question: elicited({ text: 'Paris' }) }],
  ])('asks again on %s', async (_label, responses) => {
    expectAsk(await run(responses), ['capital_question']);
  });
});

describe('test_input_required_result_list_roots', () => {
  const run = (responses?: Record<string, unknown>) => inputRequiredListRoots.run({}, ctx(responses));

  it('asks for the roots under "client_roots"', async () => {
    const ask = expectAsk(await run(), ['client_roots']);
    expect(ask.inputRequests.client_roots?.method).toBe('roots/list');
  });

  it('completes listing the roots', async () => {
    expect(expectText(await run({ client_roots: roots }))).toContain('file:///test/root');
  });

  it.each([
    ['no answer', {}],
    ['roots that are not a list', { client_roots: { roots: 'file:///x' } }],
    ['a root without a uri', { client_roots: { roots: [{ name: 'nameless' }] } }],
  ])('asks again on %s', async (_label, responses) => {
    expectAsk(await run(responses), ['client_roots']);
  });
});

describe('test_input_required_result_capabilities', () => {
  const run = (caps: ClientCapabilities, responses?: Record<string, unknown>) =>
    inputRequiredCapabilities.run({}, ctx(responses, caps));

  it('asks only for sampling when the client declared only sampling', async () => {
    const ask = expectAsk(await run({ sampling: {} }), ['model_hello']);
    expect(ask.inputRequests.model_hello?.method).toBe('sampling/createMessage');
  });

  it('asks only for a form when the client declared only elicitation', async () => {
    const ask = expectAsk(await run({ elicitation: {} }), ['user_comment']);
    expect(ask.inputRequests.user_comment?.method).toBe('elicitation/create');
  });

  it('does not ask for a form when the client declared only url-mode elicitation', async () => {
    expectAsk(await run({ elicitation: { url: {} }, roots: {} }), ['client_roots']);
    expectAsk(await run({ elicitation: { form: {}, url: {} } }), ['user_comment']);
  });

  it('asks only for roots when the client declared only roots', async () => {
    const ask = expectAsk(await run({ roots: {} }), ['client_roots']);
    expect(ask.inputRequests.client_roots?.method).toBe('roots/list');
  });

  it('asks for all three when all three are declared', async () => {
    const ask = expectAsk(await run({ sampling: {}, elicitation: {}, roots: {} }), [
      'model_hello',
      'user_comment',
      'client_roots',
    ]);
    expect(
      Object.values(ask.inputRequests)
        .map((request) => request.method)
        .sort(),
    ).toEqual(['elicitation/create', 'roots/list', 'sampling/createMessage']);
  });

  it('completes at once, asking nothing, when nothing is declared', async () => {
    expect(expectText(await run({}))).toMatch(/no input could be requested/);
  });

  it('completes once every declared kind is answered', async () => {
    expect(expectText(await run({ sampling: {} }, { model_hello: sampled('Hello!') }))).toContain(
      'sampling answered "Hello!"',
    );
    const all = { model_hello: sampled('Hi'), user_comment: { action: 'decline' }, client_roots: roots };
    const text = expectText(await run({ sampling: {}, elicitation: {}, roots: {} }, all));
    expect(text).toContain('elicitation answered with decline');
    expect(text).toContain('1 root(s)');
  });

  it('asks again, still only for what is declared, while an answer is missing or malformed', async () => {
    expectAsk(await run({ sampling: {} }, { model_hello: 7 }), ['model_hello']);
    const partial = { model_hello: sampled('Hi'), user_comment: elicited({ comment: 3 }) };
    expectAsk(await run({ sampling: {}, elicitation: {} }, partial), ['model_hello', 'user_comment']);
  });
});
