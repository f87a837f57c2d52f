/**
 * Every compatibility gate of the exchange workflow, in one list: what each protects and when it
 * can go. A workflow's code must replay every history its running (and replayable) exchanges hold,
 * so behaviour that changed is gated, either by a `patched` marker or by the shape of what an older
 * release put into history (the workflow's input, an activity's result, a signal's payload).
 *
 * A gate can go once no exchange that needs it can still run or be replayed: every exchange started
 * before the release that added it has ended (the longest exchange lasts `maxRounds` round
 * timeouts, plus a task's TTL) and its history has left the namespace's retention (or is no longer
 * replayed in tests: the fixtures in test/fixtures are recorded by the releases that need these gates).
 * A `patched` gate goes in two steps: `deprecatePatch` first, then the call itself.
 *
 * The test beside this file checks that every `patched(...)` in workflows/ names a gate of this list.
 */
import { patched } from '@temporalio/workflow';
import type { CancelledBy } from '../lib/protocol/exchange-errors';
import type { ExchangeInput } from '../lib/exchange/types';

export interface CompatGate {
  /** The `patched` id, or the field whose absence marks an older shape. */
  gate: string;
  kind: 'patch' | 'shape';
  /** What it keeps replaying as it ran. */
  protects: string;
  /** When it can go. */
  removableWhen: string;
}

/** Gates the one command the UI metadata added: clearing `WaitingSince` when the answers to a regular round arrive. */
export const CLEAR_WAIT_ON_ANSWERS = 'clear-waiting-since-on-answers';

/*
 * No gate for `WaitingOn`: it is set and cleared inside the upserts above and those of each recorded
 * round, which every history already has; a replay matches an upsert command by its type, not by
 * the attributes it carries (sdk-core's upsert state machine), so older histories replay as they ran.
 * A new attribute in a new upsert command would need a `patched` gate of its own.
 */

/** Gates holding answers that arrive before, in the workflow's view, their round has asked. */
export const HOLD_ANSWERS_AHEAD = 'hold-answers-ahead';

export const COMPAT_GATES: readonly CompatGate[] = [
  {
    gate: CLEAR_WAIT_ON_ANSWERS,
    kind: 'patch',
    protects:
      'exchanges started before the UI metadata: their histories have no search-attribute upsert when the answers to a regular round arrive (a local round clears WaitingSince with its own record, in the same workflow task)',
    removableWhen:
      'no exchange started before the UI metadata release runs or is replayed (test/fixtures/histories-before-ui-metadata)',
  },
  {
    gate: HOLD_ANSWERS_AHEAD,
    kind: 'patch',
    protects:
      'exchanges that dropped answers arriving before their round had asked (a worker that died after a local round recorded its ask): they replay dropping them; the marker is written only where answers arrive early',
    removableWhen:
      'no exchange started before answers were held runs or is replayed (test/fixtures/histories-of-answers-ahead)',
  },
  {
    gate: 'ExchangeInput.roundActivity',
    kind: 'shape',
    protects:
      'an exchange started before rounds could run as local activities (no `roundActivity`): its rounds and its ending stay the regular activities its history holds (`roundKindOf`, `endingKindOf`)',
    removableWhen: 'every running exchange was started with `roundActivity` in its input',
  },
  {
    gate: 'RoundSummary.deadlineAt',
    kind: 'shape',
    protects:
      'an ask recorded before deadlines were recorded with it: its deadline starts when the workflow sees it (`awaitedDeadline`, lib/exchange/round-deadline.ts)',
    removableWhen: 'no exchange waits on an ask recorded before deadlines were recorded',
  },
  {
    gate: 'RoundSummary.ask',
    kind: 'shape',
    protects:
      'an ask recorded before descriptions existed: the current details name its keys only, and its wait began at its deadline less the round timeout (`waitingSinceOf`)',
    removableWhen: 'no exchange waits on an ask recorded before asks were described',
  },
  {
    gate: 'RoundAnswers.sentAt / KeyAnswer.sentAt',
    kind: 'shape',
    protects: 'answers signalled before they carried their send time count as in time (`isLate`)',
    removableWhen: 'no history holds an answer signalled by a release before answers carried `sentAt`',
  },
  {
    gate: 'cancel signal `by`',
    kind: 'shape',
    protects: "a cancel signalled before it named who cancelled is the client's (`cancelledByOf`)",
    removableWhen: 'no history holds a cancel signalled before cancels named their source',
  },
  {
    gate: 'ExchangeInput.task / RoundAnswers.task',
    kind: 'shape',
    protects:
      'an exchange started before tasks existed is never in task mode, so none of the task-mode commands (the TTL timer, interruptible rounds) appear in its replay',
    removableWhen: 'never: task mode is chosen by these fields, and their absence is the ordinary exchange',
  },
  {
    gate: 'ExchangeInput.principalDetails / handlerVersion / requestDigest',
    kind: 'shape',
    protects:
      'inputs of earlier releases: without details the handler sees the key as the subject; without a version nothing is compared; a `requestDigest` is carried and never read (activities only: no workflow command depends on them)',
    removableWhen:
      'every running exchange was started with details and a version (the fields stay optional in the type until then)',
  },
];

/** Whether answers to the current round's successor may be held (`HOLD_ANSWERS_AHEAD`). */
export const holdsAnswersAhead = (): boolean => patched(HOLD_ANSWERS_AHEAD);

/** Whether the arrival of a regular round's answers clears `WaitingSince` (`CLEAR_WAIT_ON_ANSWERS`). */
export const clearsWaitOnAnswers = (): boolean => patched(CLEAR_WAIT_ON_ANSWERS);

/** How the rounds run: local only when the input asks for it. */
export function roundKindOf(input: Pick<ExchangeInput, 'roundActivity'>): 'local' | 'regular' {
  return input.roundActivity === 'local' ? 'local' : 'regular';
}

/** How the ending is recorded: regular for an input from before the choice existed, else local. */
export function endingKindOf(input: Pick<ExchangeInput, 'roundActivity'>): 'local' | 'regular' {
  return input.roundActivity === undefined ? 'regular' : 'local';
}

/** Who a signalled cancel came from: the client, unless it says. */
export function cancelledByOf(by: CancelledBy | undefined): CancelledBy {
  return by ?? 'client';
}
