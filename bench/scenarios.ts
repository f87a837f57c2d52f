/**
 * The bench's scenarios as the wire sees them: which tool, what each leg sends and what each leg
 * must get back. Every target serves the same three tools (built-in-handlers/bench for the service,
 * bench/baselines/tools.ts for the baselines); the load generator checks every leg against this.
 */
import type { ScenarioName } from './options';

export type LegExpectation = { ask: string } | { text: string };

export interface Leg {
  /** The answers this leg carries (to the previous leg's ask); none on leg 1. */
  answers?: Record<string, unknown>;
  expect: LegExpectation;
}

export interface Scenario {
  name: ScenarioName;
  label: string;
  tool: string;
  legs: readonly Leg[];
}

const accept = (key: string, value: string) => ({ [key]: { action: 'accept', content: { [key]: value } } });

export const SCENARIO_SPECS: Record<ScenarioName, Scenario> = {
  single: {
    name: 'single',
    label: 'single-round (a tool that never asks)',
    tool: 'bench_single',
    legs: [{ expect: { text: 'done' } }],
  },
  two: {
    name: 'two',
    label: 'two-round (ask a name, then answer)',
    tool: 'bench_ask_once',
    legs: [{ expect: { ask: 'name' } }, { answers: accept('name', 'Bench'), expect: { text: 'Hello, Bench!' } }],
  },
  three: {
    name: 'three',
    label: 'three-round (two successive asks)',
    tool: 'bench_ask_twice',
    legs: [
      { expect: { ask: 'name' } },
      { answers: accept('name', 'Bench'), expect: { ask: 'color' } },
      { answers: accept('color', 'teal'), expect: { text: 'Hello, Bench! Favourite colour: teal.' } },
    ],
  },
};

/** Why a leg's result is not what the scenario expects, or undefined when it is. */
export function mismatch(result: Record<string, unknown>, expect: LegExpectation): string | undefined {
  const shown = () => JSON.stringify(result).slice(0, 200);
  if ('ask' in expect) {
    const keys = Object.keys((result.inputRequests as object | undefined) ?? {});
    if (result.resultType !== 'input_required' || keys.length !== 1 || keys[0] !== expect.ask)
      return `expected an ask for "${expect.ask}", got ${shown()}`;
    // requestState is optional on the wire (the SDK baseline keeps none when it needs none).
    if (result.requestState !== undefined && typeof result.requestState !== 'string')
      return `the ask's requestState is not a string: ${shown()}`;
    return undefined;
  }
  const content = result.content as Array<{ type?: string; text?: string }> | undefined;
  if (result.resultType === 'input_required' || content?.[0]?.text !== expect.text)
    return `expected "${expect.text}", got ${shown()}`;
  return undefined;
}
