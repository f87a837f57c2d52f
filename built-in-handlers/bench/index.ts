/**
 * The benchmark's handler set (`HANDLER_SET=bench`): three tools that do no work of their own, so
 * what `npm run bench` measures is the engine. The official-SDK and bare-Temporal baselines in
 * bench/baselines serve the same three tools with the same wire results.
 *
 * - `bench_single`: answers at once (a call that never asks: one leg).
 * - `bench_ask_once`: asks for a name, then greets (two legs).
 * - `bench_ask_twice`: asks for a name, then (carrying it in its state) for a colour (three legs).
 */
import { defineTool, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';

const objectSchema = { type: 'object' as const, properties: {} };

const askFor = (key: 'name' | 'color', message: string) =>
  inputRequired.elicit({
    message,
    requestedSchema: {
      type: 'object',
      properties: { [key]: { type: 'string', minLength: 1 } },
      required: [key],
    },
  });

/** The accepted string under `key`, or undefined when the answer is anything else. */
function acceptedString(inputResponses: Record<string, unknown>, key: string): string | undefined {
  const answer = inputResponse(inputResponses, key);
  if (answer.kind !== 'elicit' || answer.action !== 'accept') return undefined;
  const value = answer.content?.[key];
  return typeof value === 'string' ? value : undefined;
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

export const benchSingle = defineTool({
  tool: { name: 'bench_single', description: 'Answers at once; never asks.', inputSchema: objectSchema },
  run: () => text('done'),
});

export const benchAskOnce = defineTool({
  tool: { name: 'bench_ask_once', description: 'Asks for a name, then greets.', inputSchema: objectSchema },
  run(_args, ctx) {
    const name = acceptedString(ctx.inputResponses, 'name');
    if (name !== undefined) return text(`Hello, ${name}!`);
    return inputRequired({ inputRequests: { name: askFor('name', 'What is your name?') } });
  },
});

export const benchAskTwice = defineTool({
  tool: {
    name: 'bench_ask_twice',
    description: 'Asks for a name, then for a colour, then answers with both.',
    inputSchema: objectSchema,
  },
  run(_args, ctx) {
    // Round 2 has the name as its answer; round 3 has it in the handler's (sealed) state.
    const name = ctx.requestState ?? acceptedString(ctx.inputResponses, 'name');
    if (name === undefined) return inputRequired({ inputRequests: { name: askFor('name', 'What is your name?') } });
    const color = ctx.requestState === undefined ? undefined : acceptedString(ctx.inputResponses, 'color');
    if (color !== undefined) return text(`Hello, ${name}! Favourite colour: ${color}.`);
    return inputRequired({
      inputRequests: { color: askFor('color', 'What is your favourite colour?') },
      requestState: name,
    });
  },
});

export const benchHandlers: HandlerSet = {
  name: 'bench',
  instructions: 'Benchmark tools: one that never asks, one that asks once, one that asks twice.',
  tools: [benchSingle, benchAskOnce, benchAskTwice],
};
