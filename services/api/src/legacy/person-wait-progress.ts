/**
 * Keeps a handshake-era host waiting while a person answers. While a server-to-client request that
 * a person answers (`elicitation/create`: the user fills the client's form; `sampling/createMessage`:
 * the user reviews the request) is open, or a question addressed to someone else waits (the stream
 * carried its "Waiting for an answer from …" progress and the round after it is not recorded), the
 * call it belongs to is sent `notifications/progress` on the stream every QUESTION_PROGRESS_EVERY_MS,
 * saying what it waits for, when the call carries a progress token. A host that resets its request timeout on progress
 * (the official SDK's `resetTimeoutOnProgress`) then waits past its timeout (60 s by default) for
 * as long as the person takes. The reminders stop once the request is answered (on any replica:
 * its row says so) or withdrawn, or the stream ends. Nothing is stored: a reconnected stream is
 * sent the request again and reminded again.
 */
import type { ExchangeStore } from '../../../../lib/db/exchange-store';
import type { LegacyStore } from '../../../../lib/db/legacy-store';
import { isReverseRequestId } from '../../../../lib/protocol/reverse-request-id';
import type { SseWriter } from './sse-writer';

/** The server-to-client requests a person answers, and what a reminder says of each. */
const PERSON_REQUESTS: Record<string, (params: Record<string, unknown>) => string> = {
  'elicitation/create': (params) => {
    if (params.mode === 'url' && typeof params.url === 'string')
      return `Waiting for the user to complete ${params.url}`;
    return typeof params.message === 'string'
      ? `Waiting for the user to answer: ${params.message}`
      : 'Waiting for the user to answer a form';
  },
  'sampling/createMessage': () => 'Waiting for the user to review a sampling request',
};

/** What a reminder says while `request` (a server-to-client request) waits on a person, if it does. */
export function personWaitMessage(request: Record<string, unknown>): string | undefined {
  const describe = typeof request.method === 'string' ? PERSON_REQUESTS[request.method] : undefined;
  if (!describe || !isReverseRequestId(request.id)) return undefined;
  const params = request.params;
  return describe(typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {});
}

export interface PersonWaitDeps {
  legacy: Pick<LegacyStore, 'findRequest' | 'callOfExchange'>;
  /** Whether the round after a question's is recorded: the question no longer waits. */
  exchanges: Pick<ExchangeStore, 'readRound'>;
}

/** A question addressed to someone else, as the stream announced it (legacy-stream-messages.ts `questionWaitEntries`). */
interface QuestionWait {
  exchangeId: string;
  round: number;
  progressToken: string | number;
  message: string;
}

const QUESTION_WAIT_KEY = /^questions:([^:]+):(\d+)$/;

/** The question wait a stream message announces, if it is one. */
export function questionWaitOf(
  message: Record<string, unknown>,
  messageKey: string | undefined,
): QuestionWait | undefined {
  const key = messageKey === undefined ? undefined : QUESTION_WAIT_KEY.exec(messageKey);
  const params = message.params as { progressToken?: unknown; message?: unknown } | undefined;
  const token = params?.progressToken;
  if (!key || (typeof token !== 'string' && typeof token !== 'number') || typeof params?.message !== 'string')
    return undefined;
  return { exchangeId: key[1]!, round: Number(key[2]), progressToken: token, message: params.message };
}

/**
 * `sse` as delivery writes to it, noting each request to a person it carries; every `everyMs`
 * until `stop` aborts, each call with such a request still open is reminded (one notification per
 * call, naming every request it waits on). `progress` counts the call's reminders on this stream.
 */
export function remindWhilePeopleAnswer(
  deps: PersonWaitDeps,
  sessionId: string,
  sse: SseWriter,
  everyMs: number,
  stop: AbortSignal,
): SseWriter {
  const waiting = new Map<string, string>(); // request id -> what its reminder says
  const questions = new Map<string, QuestionWait>(); // question wait key -> the wait
  const progressTokens = new Map<string, string | number | null>(); // exchange id -> its call's token
  const reminders = new Map<string | number, number>();

  const tokenOf = async (exchangeId: string) => {
    if (!progressTokens.has(exchangeId))
      progressTokens.set(exchangeId, (await deps.legacy.callOfExchange(exchangeId))?.progressToken ?? null);
    return progressTokens.get(exchangeId) ?? undefined;
  };

  async function remind(): Promise<void> {
    const byToken = new Map<string | number, string[]>();
    for (const [id, message] of [...waiting]) {
      const request = await deps.legacy.findRequest(sessionId, id);
      if (request?.status !== 'open') {
        waiting.delete(id);
        continue;
      }
      const token = await tokenOf(request.exchangeId);
      if (token !== undefined) byToken.set(token, [...(byToken.get(token) ?? []), message]);
    }
    for (const [key, wait] of [...questions]) {
      if (await deps.exchanges.readRound(wait.exchangeId, wait.round + 1)) {
        questions.delete(key);
        continue;
      }
      byToken.set(wait.progressToken, [...(byToken.get(wait.progressToken) ?? []), wait.message]);
    }
    for (const [progressToken, messages] of byToken) {
      if (stop.aborted || sse.closed) return;
      const progress = (reminders.get(progressToken) ?? 0) + 1;
      reminders.set(progressToken, progress);
      sse.write({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken, progress, message: messages.join('; ') },
      });
    }
  }

  let reminding = false;
  const timer = setInterval(() => {
    if (reminding || (waiting.size === 0 && questions.size === 0)) return;
    reminding = true;
    void remind()
      .catch(() => undefined) // the next tick tries again
      .finally(() => (reminding = false));
  }, everyMs);
  timer.unref();
  stop.addEventListener('abort', () => clearInterval(timer), { once: true });

  return {
    write(message, eventId, messageKey) {
      const request = message as Record<string, unknown>;
      const reminder = personWaitMessage(request);
      if (reminder !== undefined) waiting.set(request.id as string, reminder);
      const question = questionWaitOf(request, messageKey);
      if (question) questions.set(messageKey!, question);
      sse.write(message, eventId, messageKey);
    },
    mark: (eventId, retryMs) => sse.mark(eventId, retryMs),
    event: (name, data) => sse.event(name, data),
    comment: (text) => sse.comment(text),
    drained: () => sse.drained(),
    end: () => sse.end(),
    endForReconnect: (retryMs) => sse.endForReconnect(retryMs),
    get closed() {
      return sse.closed;
    },
    get lastEventId() {
      return sse.lastEventId;
    },
  };
}
