/**
 * The onboarding wizard as a legacy (2025-11-25) client drives it over the bare client:
 * the call's stream carries each round's `elicitation/create` request, and each answer is the
 * client's response, POSTed on its own (the API turns it into the workflow's `keyAnswer` signal).
 */
import {
  isRequest,
  isResponseTo,
  LegacySession,
  type JsonRpcId,
  type MessageStream,
} from '../../support/legacy-client';
import type { FaultStack } from './fault-stack';
import { waitFor } from './wait-for';
import { stepAnswers } from './wizard-exchange';

export interface LegacyWizard {
  session: LegacySession;
  callId: JsonRpcId;
  stream: MessageStream;
}

export async function startLegacyWizard(url: string): Promise<LegacyWizard> {
  const session = await LegacySession.open(url, { capabilities: { elicitation: {} } });
  const { id: callId, stream } = await session.request('tools/call', { name: 'onboarding_wizard', arguments: {} });
  return { session, callId, stream };
}

/** The next elicitation request on the call's stream (the next round's ask). */
export async function nextRequest(wizard: LegacyWizard, timeoutMs?: number): Promise<JsonRpcId> {
  const ask = await wizard.stream.until(
    (m) => isRequest(m, 'elicitation/create'),
    'the next elicitation/create',
    timeoutMs,
  );
  return ask.message.id as JsonRpcId;
}

/** Responds to request `id` with step `step`'s answer; returns the HTTP status (202 once it is signalled). */
export function respondStep(wizard: LegacyWizard, id: JsonRpcId, name: string, step: 1 | 2 | 3): Promise<number> {
  const [answer] = Object.values(stepAnswers(name, step));
  return wizard.session.respond(id, answer as Record<string, unknown>);
}

/** The call's final response, as an RPC reply the expectations read. */
export async function finalReply(wizard: LegacyWizard, timeoutMs?: number) {
  const { message } = await wizard.stream.until(
    (m) => isResponseTo(m, wizard.callId),
    'the result of the call',
    timeoutMs,
  );
  return {
    body: { ...(message.result ? { result: message.result } : {}), ...(message.error ? { error: message.error } : {}) },
  };
}

/** The exchange the wizard's call started (its session's one call). */
export function exchangeOfWizard(stack: FaultStack, wizard: LegacyWizard): Promise<string> {
  return waitFor('the call to have its exchange', async () => {
    const rows = await stack.query<{ exchange_id: string }>(
      'SELECT exchange_id FROM legacy_calls WHERE session_id = $1',
      [wizard.session.sessionId],
    );
    return rows[0]?.exchange_id;
  });
}
