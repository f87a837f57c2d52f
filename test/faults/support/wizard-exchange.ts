/**
 * The onboarding wizard (a demo tool that asks at rounds 1, 2 and 3 and completes at round 4) as a
 * 2026-07-28 client drives it: the shortest exchange whose round-2 ask is recorded by a round that
 * has answers, which is where a round run inside its workflow task can lose the next answers.
 * Each client's answers carry its own name, so every outcome can be matched to its client.
 */
import { accept, type RpcReply } from '../../support/raw-mcp';
import {
  askOf,
  pollPastStateOnly,
  sendLeg,
  startCall,
  type ApiChoice,
  type Ask,
  type LegTrace,
  type ToolCall,
} from './modern-exchange';

export const WIZARD: ToolCall = { name: 'onboarding_wizard', arguments: {} };

/** Rounds of a wizard answered to the end: three asks, then the welcome. */
export const WIZARD_ROUNDS = [
  [1, 'ask'],
  [2, 'ask'],
  [3, 'ask'],
  [4, 'complete'],
] as const;

/** The answers to step `step` (1, 2 or 3) of `name`'s wizard, under the keys its asks use. */
export function stepAnswers(name: string, step: 1 | 2 | 3): Record<string, unknown> {
  if (step === 1) return { profile: accept({ name, email: `${name}@example.com` }) };
  if (step === 2) return { team: accept({ team: 'platform', role: `role-of-${name}` }) };
  return { confirm: accept({ confirm: true }) };
}

export const welcomeText = (name: string) => `Welcome aboard, ${name} (role-of-${name}, platform).`;

/** How `name`'s wizard ends when every step is answered: welcomed by its own name, after its four rounds. */
export const wizardCompleted = (name: string) =>
  ({ client: { text: welcomeText(name) }, status: 'completed', rounds: WIZARD_ROUNDS }) as const;

export const startWizard = (apis: ApiChoice, trace: LegTrace, keyRing: string) =>
  startCall(apis, WIZARD, trace, keyRing);

export const stepParams = (ask: Ask, name: string, step: 1 | 2 | 3) => ({
  ...WIZARD,
  inputResponses: stepAnswers(name, step),
  requestState: ask.requestState,
});

/** Answers step `step` and follows state-only results to what comes next (an ask, the result or an error). */
export async function answerStep(
  apis: ApiChoice,
  ask: Ask,
  name: string,
  step: 1 | 2 | 3,
  trace: LegTrace,
  patienceMs = 120_000,
): Promise<RpcReply> {
  const params = stepParams(ask, name, step);
  return pollPastStateOnly(apis, params, await sendLeg(apis, params, trace), trace, patienceMs);
}

/** The next ask after answering `step`, or an error naming what came instead. */
export async function nextAsk(
  apis: ApiChoice,
  ask: Ask,
  name: string,
  step: 1 | 2,
  trace: LegTrace,
  keyRing: string,
  patienceMs?: number,
): Promise<Ask> {
  const reply = await answerStep(apis, ask, name, step, trace, patienceMs);
  return askOf(reply, keyRing, WIZARD, `step ${step}'s answer`, apis.principal);
}

/** A wizard from its first leg to its result, each leg followed for up to `patienceMs`. */
export async function runWizard(
  apis: ApiChoice,
  name: string,
  trace: LegTrace,
  keyRing: string,
  patienceMs?: number,
): Promise<Exchanged> {
  const first = await startCall(apis, WIZARD, trace, keyRing, patienceMs);
  const second = await nextAsk(apis, first, name, 1, trace, keyRing, patienceMs);
  const third = await nextAsk(apis, second, name, 2, trace, keyRing, patienceMs);
  return { exchangeId: first.exchangeId, name, reply: await answerStep(apis, third, name, 3, trace, patienceMs) };
}

export interface Exchanged {
  exchangeId: string;
  name: string;
  reply: RpcReply;
}
