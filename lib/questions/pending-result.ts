/**
 * What a `tools/call` gets when its wait outlasts its client's retry loop (client-patience.ts): a
 * complete tool result that says the call is still pending, for whom and until when, and how to
 * get its outcome (`await_answer` with its handle, or the same call again). An agent reads the text;
 * software reads `_meta["io.durable-mcp/pending"]`.
 *
 * It is a tool error (`isError: true`), for two reasons: a tool with an `outputSchema` must return
 * matching `structuredContent` in every successful result, which a notice cannot; and a host or a
 * pipeline that takes any successful result as the tool's output would go on without the answer.
 * The text then says that nothing failed. Pure.
 */
import type { RoundRecord } from '../exchange/types';
import { addressedKeys, isAddressedAsk } from './addressing';
import { humanTime } from './human-time';
import { waitingMessage } from './waiting-message';

export const PENDING_META_KEY = 'io.durable-mcp/pending';
/** The built-in tool that waits again for a pending call's outcome (await-answer.ts). */
export const AWAIT_ANSWER_TOOL = 'await_answer';

/**
 * What a pending call waits on, in one line, and until when (epoch ms) where its ask has a deadline;
 * `working`: its answers are in, and its handler is at work with them (nothing waits on a person).
 */
export interface PendingOn {
  waitingFor: string;
  until?: number;
  working?: true;
}

const WORKING: PendingOn = { waitingFor: 'The tool has its answers and is still working on it', working: true };

function messageOf(request: unknown): string | undefined {
  const params = (request as { params?: { message?: unknown } } | undefined)?.params;
  return typeof params?.message === 'string' ? params.message : undefined;
}

/**
 * What the call waits on, from its last recorded round (`last`), and whether the answers to it are
 * in (`answered`: the workflow holds or took them): a question addressed to someone, a question of
 * its own client's (a form nobody filled in yet), or its handler, still at work.
 */
export function pendingOn(last: RoundRecord | undefined, answered = false): PendingOn {
  const until = last?.deadlineAt?.getTime();
  if (last?.outcome.kind === 'ask' && answered) return WORKING;
  if (!last || last.outcome.kind !== 'ask') return { waitingFor: 'The tool is still working on it', working: true };
  const { inputRequests } = last.outcome;
  if (isAddressedAsk(inputRequests)) {
    const direct = Object.keys(inputRequests).filter((key) => !addressedKeys(inputRequests).includes(key));
    const also = direct.length > 0 ? '; and for your own answer to its other questions' : '';
    return { waitingFor: `${waitingMessage(inputRequests, until)}${also}`, ...(until ? { until } : {}) };
  }
  const message = Object.values(inputRequests)
    .map(messageOf)
    .find((m) => m !== undefined);
  const asked = message !== undefined ? `: "${message}"` : '';
  return {
    waitingFor: `Waiting for your answer to the tool's question${asked}${until ? ` (until ${humanTime(until)})` : ''}`,
    ...(until ? { until } : {}),
  };
}

export interface PendingCall {
  /** The tool that was called. */
  tool: string;
  /** What `await_answer` takes: the exchange's id. */
  handle: string;
  on: PendingOn;
  /** Whether the same call again comes back to this one (the tool reattaches identical calls). */
  repeatReattaches: boolean;
}

/** The complete result of a call that is still pending. */
export function pendingResult(call: PendingCall): Record<string, unknown> {
  const { tool, handle, on } = call;
  const args = JSON.stringify({ handle });
  const repeat = call.repeatReattaches
    ? ` Calling "${tool}" again with the same arguments also comes back to this call instead of asking again.`
    : '';
  const safe = on.working
    ? 'Nothing was lost. '
    : 'Nothing was lost, and nothing that needs that answer has been done. ';
  const text =
    `Not finished yet, and nothing failed: this call to "${tool}" is still pending. ${on.waitingFor}. ` +
    safe +
    `To get the outcome, call the tool "${AWAIT_ANSWER_TOOL}" with ${args}: it waits again and returns ` +
    `this call's result once it is there (or this notice again if it is still pending).${repeat} ` +
    `Do not change the arguments to make it go faster; tell the user what the call is waiting for.`;
  return {
    content: [{ type: 'text', text }],
    isError: true,
    _meta: {
      [PENDING_META_KEY]: {
        status: 'pending',
        handle,
        tool,
        waitingFor: on.waitingFor,
        ...(on.until !== undefined ? { until: new Date(on.until).toISOString() } : {}),
        awaitTool: AWAIT_ANSWER_TOOL,
      },
    },
  };
}

/** The complete result of a call whose tool does not take a pending result: it was withdrawn. */
export function withdrawnResult(tool: string, on: PendingOn): Record<string, unknown> {
  const text =
    `The call to "${tool}" was withdrawn: no answer came within the time this client waits ` +
    `(${on.waitingFor.replace(/^Waiting/, 'it was waiting')}). Nothing that needed the answer was done. ` +
    `Call it again when the answer can be given sooner (with a new idempotency key, if it had one).`;
  return { content: [{ type: 'text', text }], isError: true };
}
