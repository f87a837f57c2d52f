/**
 * The keys of a legacy stream's entries in the event log, one per message, so writing a
 * message is idempotent (a stream holds each key once). Control entries carry no JSON-RPC message:
 * the priming event that opens a resumable stream, and a handler's request to close it (SEP-1699).
 */
export const PRIMING_KEY = 'prime';
export const CLOSE_STREAM_KEY = 'close-stream:';

export const streamKeys = {
  /** A server-to-client request made from one key of an ask. */
  request: (requestId: string) => `request:${requestId}`,
  /** The `notifications/cancelled` that withdraws it. */
  withdrawal: (requestId: string) => `cancel:${requestId}`,
  /** A handler's progress or log notification, by its event id. */
  notification: (eventId: number) => `event:${eventId}`,
  closeStream: (eventId: number) => `${CLOSE_STREAM_KEY}${eventId}`,
  /** The progress notification that says a round waits on questions addressed to someone else. */
  questionWait: (exchangeId: string, round: number) => `questions:${exchangeId}:${round}`,
  /** The `notifications/elicitation/complete` that says a URL-mode question was answered (2025-11-25). */
  elicitationComplete: (elicitationId: string) => `complete:${elicitationId}`,
  /** The originating call's response (the stream's final message). */
  response: (exchangeId: string) => `response:${exchangeId}`,
  /** A reply on a 2024-11-05 session stream to a request that started no exchange, by its request id. */
  reply: (requestId: unknown) => `response:${JSON.stringify(requestId)}`,
};
