// Pins the bench tools round by round: the wire the bench checks on every target comes from here.
import { testContext } from '@durable-mcp/testing';
import { builtInHandlerSet } from '..';
import { benchAskOnce, benchAskTwice, benchHandlers, benchSingle } from '.';

const accepted = (key: string, value: string) => ({ [key]: { action: 'accept', content: { [key]: value } } });
const textOf = (result: unknown) => (result as { content: Array<{ text?: string }> }).content[0]?.text;

function ask(result: unknown): { keys: string[]; requestState?: string } {
  const r = result as { resultType?: string; inputRequests?: object; requestState?: string };
  expect(r.resultType).toBe('input_required');
  return { keys: Object.keys(r.inputRequests ?? {}), requestState: r.requestState };
}

describe('the bench handler set', () => {
  it('is the built-in set named bench, with its three tools', () => {
    expect(builtInHandlerSet('bench')).toBe(benchHandlers);
    expect(benchHandlers.tools.map((h) => h.tool.name)).toEqual(['bench_single', 'bench_ask_once', 'bench_ask_twice']);
  });

  it('bench_single answers at once', async () => {
    expect(textOf(await benchSingle.run({}, testContext()))).toBe('done');
  });

  it('bench_ask_once asks for a name, then greets by it', async () => {
    expect(ask(await benchAskOnce.run({}, testContext()))).toEqual({ keys: ['name'] });
    const done = await benchAskOnce.run({}, testContext({ round: 2, inputResponses: accepted('name', 'Bench') }));
    expect(textOf(done)).toBe('Hello, Bench!');
  });

  it('bench_ask_twice asks for a name, then a colour carrying the name in its state, then answers', async () => {
    expect(ask(await benchAskTwice.run({}, testContext()))).toEqual({ keys: ['name'] });
    const second = ask(
      await benchAskTwice.run({}, testContext({ round: 2, inputResponses: accepted('name', 'Bench') })),
    );
    expect(second).toEqual({ keys: ['color'], requestState: 'Bench' });
    const done = await benchAskTwice.run(
      {},
      testContext({ round: 3, requestState: 'Bench', inputResponses: accepted('color', 'teal') }),
    );
    expect(textOf(done)).toBe('Hello, Bench! Favourite colour: teal.');
  });

  it('bench_ask_twice asks for the colour again when its answer is not usable', async () => {
    const again = await benchAskTwice.run(
      {},
      testContext({ round: 3, requestState: 'Bench', inputResponses: { color: { action: 'decline' } } }),
    );
    expect(ask(again)).toEqual({ keys: ['color'], requestState: 'Bench' });
  });
});
