// Pins the SEP-2322 fixtures that keep state in requestState: completion only with the state echoed back,
// multi_round's three rounds each with its own state, and multiple_inputs keeping partial answers between rounds.
import type { HandlerContext } from '@durable-mcp/handlers';
import { testContext } from '@durable-mcp/testing';
import { expectAsk, expectText, type Ask } from './ask-assertions';
import {
  inputRequiredMultiRound,
  inputRequiredMultipleInputs,
  inputRequiredRequestState,
  inputRequiredTamperedState,
} from './input-required-state-tools';

function ctx(inputResponses: Record<string, unknown> = {}, requestState?: string): HandlerContext {
  return testContext({ inputResponses, requestState });
}

const stateOf = (ask: Ask): unknown => JSON.parse(ask.requestState ?? 'null');
const elicited = (content: Record<string, unknown>) => ({ action: 'accept', content });
const sampled = (text: string) => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'test-model',
  stopReason: 'endTurn',
});
const roots = { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] };

describe('test_input_required_result_request_state', () => {
  const run = (responses?: Record<string, unknown>, state?: string) =>
    inputRequiredRequestState.run({}, ctx(responses, state));
  const STATE = JSON.stringify({ step: 'confirm' });

  it('asks for a confirmation under "confirm" with {step:"confirm"} state', async () => {
    const ask = expectAsk(await run(), ['confirm']);
    expect(ask.inputRequests.confirm).toEqual({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Please confirm',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      },
    });
    expect(stateOf(ask)).toEqual({ step: 'confirm' });
  });

  it('completes with "state-ok" when the state comes back with ok: true', async () => {
    expect(expectText(await run({ confirm: elicited({ ok: true }) }, STATE))).toBe('state-ok: confirmed');
  });

  it('completes, not confirmed, on ok: false or a decline', async () => {
    expect(expectText(await run({ confirm: elicited({ ok: false }) }, STATE))).toBe('state-ok: not confirmed');
    expect(expectText(await run({ confirm: { action: 'decline' } }, STATE))).toMatch(/^state-ok: not confirmed/);
  });

  it.each([
    ['the answer comes without the state', { confirm: elicited({ ok: true }) }, undefined],
    ['the state is not JSON', { confirm: elicited({ ok: true }) }, 'not json'],
    ['the state is for another step', { confirm: elicited({ ok: true }) }, JSON.stringify({ step: 'integrity-check' })],
    ['ok is not a boolean', { confirm: elicited({ ok: 'yes' }) }, STATE],
    ['the answer is missing', {}, STATE],
  ])('asks again, with fresh state, when %s', async (_label, responses, state) => {
    const ask = expectAsk(await run(responses, state), ['confirm']);
    expect(stateOf(ask)).toEqual({ step: 'confirm' });
  });
});

describe('test_input_required_result_tampered_state', () => {
  const run = (responses?: Record<string, unknown>, state?: string) =>
    inputRequiredTamperedState.run({}, ctx(responses, state));

  it('asks with state, and completes when the (verified) state comes back with the answer', async () => {
    const ask = expectAsk(await run(), ['confirm']);
    expect(typeof ask.requestState).toBe('string');
    expect(expectText(await run({ confirm: elicited({ ok: true }) }, ask.requestState))).toBe(
      'state verified: ok=true',
    );
  });

  it('asks again when the answer comes without its state', async () => {
    expectAsk(await run({ confirm: elicited({ ok: true }) }), ['confirm']);
  });
});

describe('test_input_required_result_multi_round', () => {
  const run = (responses?: Record<string, unknown>, state?: string) =>
    inputRequiredMultiRound.run({}, ctx(responses, state));

  it('takes three rounds, with a different ask and state in each of the first two', async () => {
    const r1 = expectAsk(await run(), ['step1']);
    expect(r1.inputRequests.step1?.params).toMatchObject({
      message: 'What is your name?',
      requestedSchema: { properties: { name: { type: 'string' } }, required: ['name'] },
    });
    expect(stateOf(r1)).toEqual({ round: 1 });

    const r2 = expectAsk(await run({ step1: elicited({ name: 'Alice' }) }, r1.requestState), ['step2']);
    expect(r2.inputRequests.step2?.params).toMatchObject({
      message: 'What is your favorite color?',
      requestedSchema: { properties: { color: { type: 'string' } }, required: ['color'] },
    });
    expect(stateOf(r2)).toEqual({ round: 2, name: 'Alice' });
    expect(r2.requestState).not.toBe(r1.requestState);

    expect(expectText(await run({ step2: elicited({ color: 'blue' }) }, r2.requestState))).toBe('Alice likes blue');
  });

  it('asks for the name again when step 1 is missing, malformed or comes without its state', async () => {
    const round1 = JSON.stringify({ round: 1 });
    for (const [responses, state] of [
      [{}, round1],
      [{ step1: elicited({ name: 7 }) }, round1],
      [{ step1: elicited({ name: 'Alice' }) }, undefined],
      [{ step2: elicited({ color: 'blue' }) }, round1],
    ] as const) {
      const ask = expectAsk(await run(responses, state), ['step1']);
      expect(stateOf(ask)).toEqual({ round: 1 });
    }
  });

  it('asks for the color again, keeping the name, when step 2 is missing or malformed', async () => {
    const round2 = JSON.stringify({ round: 2, name: 'Alice' });
    for (const responses of [{}, { step2: elicited({}) }, { step1: elicited({ name: 'Bob' }) }]) {
      const ask = expectAsk(await run(responses, round2), ['step2']);
      expect(stateOf(ask)).toEqual({ round: 2, name: 'Alice' });
    }
  });

  it('stops with a complete result when a step is declined', async () => {
    expect(expectText(await run({ step1: { action: 'decline' } }, JSON.stringify({ round: 1 })))).toMatch(/no name/);
    expect(expectText(await run({ step2: { action: 'cancel' } }, JSON.stringify({ round: 2, name: 'Alice' })))).toMatch(
      /^Alice did not say/,
    );
  });
});

describe('test_input_required_result_multiple_inputs', () => {
  const run = (responses?: Record<string, unknown>, state?: string) =>
    inputRequiredMultipleInputs.run({}, ctx(responses, state));
  const allAnswers = { user_name: elicited({ name: 'Alice' }), greeting: sampled('Hello there!'), client_roots: roots };

  it('asks for a form, a sampling and the roots at once, with state', async () => {
    const ask = expectAsk(await run(), ['user_name', 'greeting', 'client_roots']);
    expect(ask.inputRequests.user_name?.method).toBe('elicitation/create');
    expect(ask.inputRequests.greeting).toEqual({
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Write a short greeting' } }],
        maxTokens: 50,
      },
    });
    expect(ask.inputRequests.client_roots?.method).toBe('roots/list');
    expect(typeof ask.requestState).toBe('string');
  });

  it('completes when all three are answered', async () => {
    const r1 = expectAsk(await run(), ['user_name', 'greeting', 'client_roots']);
    const text = expectText(await run(allAnswers, r1.requestState));
    expect(text).toContain('Hello there!');
    expect(text).toContain('Alice');
    expect(text).toContain('file:///test/root');
  });

  it('re-asks only what is missing, keeps what arrived, and completes when the rest comes', async () => {
    const r1 = expectAsk(await run(), ['user_name', 'greeting', 'client_roots']);
    const partial = { user_name: elicited({ name: 'Alice' }), greeting: { role: 'assistant' }, client_roots: roots };
    const r2 = expectAsk(await run(partial, r1.requestState), ['greeting']);
    expect(stateOf(r2)).toEqual({ name: 'Alice', roots: ['file:///test/root'] });

    const text = expectText(await run({ greeting: sampled('Howdy!') }, r2.requestState));
    expect(text).toContain('Howdy!');
    expect(text).toContain('Alice');
  });

  it('asks for all three again when every answer is malformed', async () => {
    const malformed = { user_name: elicited({ name: 1 }), greeting: 'hi', client_roots: { roots: [{}] } };
    expectAsk(await run(malformed, JSON.stringify({})), ['user_name', 'greeting', 'client_roots']);
  });

  it('stops with a complete result when the name is declined', async () => {
    expect(expectText(await run({ ...allAnswers, user_name: { action: 'decline' } }, JSON.stringify({})))).toMatch(
      /declined/,
    );
  });
});
