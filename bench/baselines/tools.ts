/**
 * The bench's three tools for the baselines (the official SDK server and bare Temporal), written
 * without the service: given what is known so far, the next step is an ask or the result. The
 * service serves the same tools from built-in-handlers/bench; the load generator checks every target's
 * legs against bench/scenarios.ts, so all targets answer the same on the wire.
 */
import { inputRequired, type InputRequest } from '@modelcontextprotocol/server';

export const BENCH_TOOLS = ['bench_single', 'bench_ask_once', 'bench_ask_twice'] as const;
export type BenchTool = (typeof BENCH_TOOLS)[number];

export const isBenchTool = (name: unknown): name is BenchTool => BENCH_TOOLS.includes(name as BenchTool);

/** The accepted answers so far, by the key they were asked under. */
export interface Known {
  name?: string;
  color?: string;
}

export type Step =
  | { kind: 'ask'; key: 'name' | 'color'; request: InputRequest }
  | { kind: 'result'; result: { content: Array<{ type: 'text'; text: string }> } };

const ask = (key: 'name' | 'color', message: string): Step => ({
  kind: 'ask',
  key,
  request: inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { [key]: { type: 'string', minLength: 1 } }, required: [key] },
  }),
});

const result = (text: string): Step => ({ kind: 'result', result: { content: [{ type: 'text', text }] } });

export function benchStep(tool: BenchTool, known: Known): Step {
  switch (tool) {
    case 'bench_single':
      return result('done');
    case 'bench_ask_once':
      return known.name === undefined ? ask('name', 'What is your name?') : result(`Hello, ${known.name}!`);
    case 'bench_ask_twice':
      if (known.name === undefined) return ask('name', 'What is your name?');
      if (known.color === undefined) return ask('color', 'What is your favourite colour?');
      return result(`Hello, ${known.name}! Favourite colour: ${known.color}.`);
  }
}

/** The accepted string under `key` in a round's raw answers (an accepted form elicitation), if any. */
export function acceptedString(answers: Record<string, unknown> | undefined, key: string): string | undefined {
  const answer = answers?.[key] as { action?: unknown; content?: Record<string, unknown> } | undefined;
  if (answer?.action !== 'accept') return undefined;
  const value = answer.content?.[key];
  return typeof value === 'string' ? value : undefined;
}
