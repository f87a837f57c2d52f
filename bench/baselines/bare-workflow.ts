/**
 * Baseline workflow: the same rounds as the service's exchange with nothing of the service. Each
 * round runs in one activity (regular or local, per exchange); between rounds it waits for the
 * answers signal under a durable timer (the round timeout), as the service's workflow does.
 */
import { condition, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import { answersSignal, type BareActivities, type BareAnswers, type BareInput } from './bare-messages';
import type { Known } from './tools';

const regular = proxyActivities<BareActivities>({ startToCloseTimeout: '1 minute' });
const local = proxyLocalActivities<BareActivities>({ startToCloseTimeout: '1 minute' });

export async function bareExchange(input: BareInput): Promise<number> {
  const { runRound } = input.local ? local : regular;
  let round = 1;
  let pending: BareAnswers | undefined;
  setHandler(answersSignal, (answers) => {
    // Only the answers to the latest ask count (they may arrive before its round's activity is
    // seen to complete: the leg was answered from inside it); a duplicate or a stray is ignored.
    if (pending === undefined && answers.round === round + 1) pending = answers;
  });

  let known: Known = {};
  let answers: Record<string, unknown> | undefined;
  for (;;) {
    const step = await runRound({ exchangeId: input.exchangeId, tool: input.tool, round, answers, known });
    if (step.kind === 'result') return round;
    known = step.known;
    const arrived = await condition(() => pending !== undefined, input.roundTimeoutMs);
    if (!arrived) return round;
    answers = pending!.answers;
    pending = undefined;
    round += 1;
  }
}
