/**
 * Writes what a legacy client must see of an exchange into its call's stream, in the
 * transaction that records it: for an ask, one server-to-client request per key, each also kept as
 * an open request; for an ending, the requests still open withdrawn, then the call's response and
 * the call finished; for a handler's notification, the MCP notification its client listens for.
 * The messages are built by lib/protocol/legacy-stream-messages.ts; this stores them. Whoever
 * records (the worker, or the API recording an ending Temporal left unrecorded) projects, so a
 * stream is complete the moment its round is recorded, whether or not a client is connected; API
 * replicas only deliver the rows. Exchanges with no legacy call (the modern era) project
 * nothing.
 */
import type { PoolClient } from 'pg';
import type { ExchangeEvent, ExchangeInput, RoundOutcome } from '../exchange/types';
import { callerPageOf, callerUrlRequests, takesUrlElicitation } from '../questions/caller-url';
import { questionPageUrl } from '../questions/question-path';
import {
  askRequestEntries,
  elicitationCompleteEntry,
  endingEntries,
  eventEntry,
  questionWaitEntries,
  type StreamCall,
  type StreamEntry,
} from '../protocol/legacy-stream-messages';
import { appendStreamMessage } from './legacy-stream-pg';
import { completedUrlElicitations } from './legacy-url-elicitations-pg';
import { isAddressedAsk } from '../questions/addressing';
import { waitingMessage } from '../questions/waiting-message';

/** An exchange's call as its stream's messages need it, or undefined when no legacy call started it. */
async function callOf(
  client: PoolClient,
  exchangeId: string,
): Promise<(StreamCall & { sessionId: string; streamId: string }) | undefined> {
  const { rows } = await client.query<{
    session_id: string;
    stream_id: string;
    request_id_json: string | number;
    progress_token: string | number | null;
    /** Set when the call runs as a task. */
    task_id: string | null;
  }>({
    text: `SELECT c.session_id, c.stream_id, c.request_id_json, c.progress_token, t.task_id
             FROM legacy_calls c LEFT JOIN exchange_tasks t ON t.exchange_id = c.exchange_id
            WHERE c.exchange_id = $1`,
    values: [exchangeId],
  });
  const row = rows[0];
  return (
    row && {
      sessionId: row.session_id,
      streamId: row.stream_id,
      requestIdJson: row.request_id_json,
      ...(row.progress_token !== null ? { progressToken: row.progress_token } : {}),
      ...(row.task_id !== null ? { taskId: row.task_id } : {}),
    }
  );
}

/** Appends entries to the call's stream, in order. */
async function write(
  client: PoolClient,
  call: { sessionId: string; streamId: string },
  entries: readonly StreamEntry[],
  maxEvents: number,
): Promise<void> {
  for (const { messageKey, message, final, serverRequestId } of entries) {
    await appendStreamMessage(
      client,
      {
        sessionId: call.sessionId,
        streamId: call.streamId,
        messageKey,
        message,
        ...(final ? { final } : {}),
        ...(serverRequestId ? { serverRequestId } : {}),
      },
      maxEvents,
    );
  }
}

/**
 * The URL-mode elicitations an addressed ask sends its caller's client for the questions addressed
 * to the caller, when the answer page is on and the session takes URL mode (`exchange`: the
 * exchange's input, known when the worker records the round).
 */
function urlAskOf(
  exchange: ExchangeInput | undefined,
  round: number,
  inputRequests: Record<string, unknown>,
): Extract<RoundOutcome, { kind: 'ask' }> | undefined {
  const origin = exchange?.answerPageOrigin;
  if (origin === undefined || !takesUrlElicitation(exchange!.clientCapabilities)) return undefined;
  const requests = callerUrlRequests(
    exchange!.exchangeId,
    round,
    inputRequests,
    (id) => questionPageUrl(origin, id),
    true,
  );
  return Object.keys(requests).length > 0 ? { kind: 'ask', inputRequests: requests } : undefined;
}

/** Writes an ask's server-to-client requests, each also kept as an open request. */
async function writeRequests(
  client: PoolClient,
  call: StreamCall & { sessionId: string; streamId: string },
  exchangeId: string,
  round: number,
  ask: Extract<RoundOutcome, { kind: 'ask' }>,
  maxEvents: number,
): Promise<void> {
  for (const request of askRequestEntries(call, exchangeId, round, ask)) {
    await client.query({
      text: `INSERT INTO legacy_open_requests (id, session_id, exchange_id, round, key, message)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
      values: [
        request.serverRequestId,
        call.sessionId,
        exchangeId,
        round,
        request.key,
        JSON.stringify(request.message),
      ],
    });
    await write(client, call, [request], maxEvents);
  }
}

export async function projectRound(
  client: PoolClient,
  entry: { exchangeId: string; round: number; outcome: RoundOutcome; deadlineAt?: Date },
  maxEvents: number,
  exchange?: ExchangeInput,
): Promise<void> {
  const { exchangeId, round, outcome } = entry;
  const call = await callOf(client, exchangeId);
  if (!call) return;
  // The URL-mode questions of the round before, answered on their pages, are complete.
  if (round > 1) {
    const completed = await completedUrlElicitations(client, exchangeId, round - 1);
    await write(client, call, completed.map(elicitationCompleteEntry), maxEvents);
  }

  if (outcome.kind === 'ask' && isAddressedAsk(outcome.inputRequests)) {
    const urlAsk = urlAskOf(exchange, round, outcome.inputRequests);
    if (urlAsk) await writeRequests(client, call, exchangeId, round, urlAsk, maxEvents);
    const origin = exchange?.answerPageOrigin;
    const page =
      origin === undefined
        ? undefined
        : callerPageOf(exchangeId, round, outcome.inputRequests, (id) => questionPageUrl(origin, id));
    const message = waitingMessage(outcome.inputRequests, entry.deadlineAt?.getTime(), page);
    await write(client, call, questionWaitEntries(call, exchangeId, round, message), maxEvents);
    return;
  }
  if (outcome.kind === 'ask') {
    await writeRequests(client, call, exchangeId, round, outcome, maxEvents);
    return;
  }

  // The exchange ended: what is still open is withdrawn, exactly once, before the response.
  const { rows } = await client.query<{ id: string }>({
    text: `UPDATE legacy_open_requests SET status = 'withdrawn', settled_at = now()
           WHERE exchange_id = $1 AND status = 'open' RETURNING id`,
    values: [exchangeId],
  });
  const withdrawn = rows.map(({ id }) => id);
  await write(client, call, endingEntries(call, exchangeId, outcome, withdrawn), maxEvents);
  await client.query({
    text: 'UPDATE legacy_calls SET finished_at = now() WHERE exchange_id = $1 AND finished_at IS NULL',
    values: [exchangeId],
  });
}

export async function projectEvent(
  client: PoolClient,
  exchangeId: string,
  eventId: number,
  event: ExchangeEvent,
  maxEvents: number,
): Promise<void> {
  const call = await callOf(client, exchangeId);
  if (!call) return;
  const entry = eventEntry(call, eventId, event);
  if (entry) await write(client, call, [entry], maxEvents);
}
