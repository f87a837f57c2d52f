/**
 * Legacy state in Postgres: sessions, their calls, the server-to-client requests sent to
 * them, and the ordered messages of their streams (the SSE event log).
 */
export const LEGACY_STREAM_CHANNEL = 'legacy_stream';

/**
 * How long one hold on a call's delivery lasts: the connection delivering a call renews it every
 * third of this, and gives it up the moment it stops (DELIVERY_FREED_CHANNEL), so only a process
 * that died (and cannot give it up) keeps a call from a plain GET stream, for at most this long.
 * Long enough that a Postgres hiccup of a few seconds costs no delivery, short enough that a
 * killed replica's calls are re-delivered within half a minute.
 */
export const DELIVERY_LEASE_MS = 30_000;

/**
 * Announces (key: the session id) that a call of the session gave up its delivery lease: a GET
 * stream of the session claims it at once, instead of at its next look.
 */
export const DELIVERY_FREED_CHANNEL = 'legacy_delivery_freed';

/**
 * Announces (key: the exchange id) that a connection took a call's delivery over: the connection
 * that held it stops delivering it, so nothing goes out on two streams.
 */
export const DELIVERY_TAKEN_CHANNEL = 'legacy_delivery_taken';

export type LegacyTransport = 'streamable-http' | 'http+sse';

export interface LegacySession {
  id: string;
  transport: LegacyTransport;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: Record<string, unknown>;
  logLevel?: string;
  principal: string;
  closed: boolean;
}

export interface LegacyCall {
  sessionId: string;
  /** The originating request's id, as a lookup key (`JSON.stringify` of the id). */
  requestId: string;
  /** The originating request's id as the client sent it, for the response. */
  requestIdJson: string | number;
  exchangeId: string;
  streamId: string;
  progressToken?: string | number;
  /**
   * Set once the call was answered with the pending result: the last event of its stream written
   * to its client by then (a later await sends nothing up to it again).
   */
  detachedThrough?: number;
  /** When the call was recorded (read back from its row): its client's request timeout runs from then. */
  startedAt?: Date;
}

export interface OpenRequest {
  id: string;
  sessionId: string;
  exchangeId: string;
  round: number;
  key: string;
  message: Record<string, unknown>;
}

export interface StreamMessage {
  id: number;
  messageKey: string;
  message: Record<string, unknown>;
  final: boolean;
}

export interface NewStreamMessage {
  sessionId: string;
  streamId: string;
  /** Idempotency key: a message with the same key on the same stream is written once. */
  messageKey: string;
  message: Record<string, unknown>;
  final?: boolean;
  /** The server-to-client request this message carries, if it is one (open requests are found by it). */
  serverRequestId?: string;
}

/** The budgets the store enforces itself (from the config's `limits`). */
export interface LegacyStoreLimits {
  /** Events kept per stream; older ones are dropped, except a call's response and still-open requests. */
  legacyStreamMaxEvents: number;
  /** Rows one `readStream` returns at most. */
  legacyReplayPageSize: number;
  /** Repeats of one answer that are signalled again. */
  maxRepeatedAnswers: number;
}

/**
 * The legacy store, one part per job: each part has a Postgres room of its own
 * (`legacy-<part>-pg.ts`), and `createLegacyStorePg` (legacy-store-pg.ts) puts them together.
 */
export type LegacyStore = LegacySessionStore &
  LegacyCallStore &
  LegacyLeaseStore &
  LegacyRequestStore &
  LegacyStreamStore;

/** Sessions: their handshake, log level, liveness, counts and end (legacy-sessions-pg.ts). */
export interface LegacySessionStore {
  createSession(session: Omit<LegacySession, 'closed'>): Promise<void>;
  updateSessionHandshake(
    id: string,
    handshake: Pick<LegacySession, 'protocolVersion' | 'clientCapabilities' | 'clientInfo'>,
  ): Promise<void>;
  getSession(id: string): Promise<LegacySession | undefined>;
  setLogLevel(id: string, level: string): Promise<void>;
  /** Notes that the session is in use (at most once a minute), so retention leaves it alone. */
  touchSession(id: string): Promise<void>;
  /** Sessions not ended, across the deployment. */
  countOpenSessions(): Promise<number>;
  /** The same, and those of one principal among them, in one query (the per-principal budget reads it). */
  countOpenSessionsFor(principal: string): Promise<{ all: number; principal: number }>;
  /** Ends a session; false if it was unknown or already ended. */
  closeSession(id: string): Promise<boolean>;
}

/** Calls: the exchanges a session started, and how they are found (legacy-calls-pg.ts). */
export interface LegacyCallStore {
  /** Records a call, its delivery leased to `owner`; false when the session already made a call with this request id. */
  recordCall(call: LegacyCall, owner: string): Promise<boolean>;
  /** Forgets a call whose exchange could not be started. */
  deleteCall(exchangeId: string): Promise<void>;
  findCall(sessionId: string, requestId: string): Promise<LegacyCall | undefined>;
  /** The call that started an exchange, if a legacy call did. */
  callOfExchange(exchangeId: string): Promise<LegacyCall | undefined>;
  /** Ids of the session's unexpired tasks after `afterTaskId`, in id order, at most `limit`. */
  taskIdsOfSession(sessionId: string, afterTaskId: string | undefined, limit: number): Promise<string[]>;
  /** Calls still running whose messages go to this stream, or of this session. */
  activeCalls(filter: { streamId: string } | { sessionId: string }): Promise<LegacyCall[]>;
  /** The session's calls whose exchange still runs (not finished, nor ended without its response delivered). */
  countRunningCalls(sessionId: string): Promise<number>;
  /**
   * Detaches a call whose client is sent the pending result instead of its response, its stream
   * written to the client through event `deliveredThrough` (`detachedThrough`): true when it
   * has no response recorded (no GET stream claims it from then on: its outcome goes to whoever
   * awaits it), false when it has. Atomic with the projection's ending (legacy-projection.ts).
   */
  detachCall(exchangeId: string, deliveredThrough: number): Promise<boolean>;
}

/** The leases on a call's delivery: which connection delivers it, for how long (legacy-leases-pg.ts). */
export interface LegacyLeaseStore {
  /**
   * Atomically takes the delivery of the session's running calls that no connection delivers
   * (announcing each on DELIVERY_TAKEN_CHANNEL, for a holder whose lease lapsed while it lived).
   */
  claimUndelivered(sessionId: string, owner: string, forMs: number): Promise<LegacyCall[]>;
  /**
   * Milliseconds (by Postgres's clock) until the first delivery lease of the session's running calls
   * held by a connection other than `owner` lapses (0 if one has); undefined when none is held.
   */
  nextLeaseLapse(sessionId: string, owner: string): Promise<number | undefined>;
  /**
   * Extends `owner`'s lease of a call's delivery for `forMs` from now; with `force`, takes it over
   * from whoever holds it (announced on DELIVERY_TAKEN_CHANNEL). A lease `owner` gave up, or lost
   * to another connection, is not taken back. True when `owner` holds it now.
   */
  renewLease(exchangeId: string, owner: string, forMs: number, force?: boolean): Promise<boolean>;
  /** Gives up `owner`'s lease and announces it on DELIVERY_FREED_CHANNEL; another owner's lease is left alone. */
  releaseLease(exchangeId: string, owner: string): Promise<void>;
}

/** Server-to-client requests: open, answered, repeated, withdrawn (legacy-requests-pg.ts). */
export interface LegacyRequestStore {
  /** A session's server-to-client request, whatever its status. */
  findRequest(
    sessionId: string,
    id: string,
  ): Promise<(OpenRequest & { status: 'open' | 'answered' | 'withdrawn'; response?: unknown }) | undefined>;
  /** Marks an open request answered; false when it was already settled. */
  answerRequest(id: string, response: unknown): Promise<boolean>;
  /** Counts one more repeat of an answered request's answer; false once repeats are used up. */
  countRepeat(id: string): Promise<boolean>;
  /** The answers already taken for an exchange's round, by key. */
  answersOfRound(exchangeId: string, round: number): Promise<Array<{ key: string; response: unknown }>>;
  /** Undoes `answerRequest` when the answer could not be delivered to the exchange. */
  reopenRequest(id: string): Promise<void>;
  /** The session's open requests, with the event ids they were first written under. */
  openRequestsOfSession(sessionId: string): Promise<Array<OpenRequest & { eventId?: number }>>;
}

/** The ordered messages of each stream (the SSE event log), kept under its cap (legacy-stream-pg.ts). */
export interface LegacyStreamStore {
  /** Writes a message once; past the stream's event cap, its oldest droppable events go. */
  appendMessage(message: NewStreamMessage): Promise<void>;
  /** The next page (at most `legacyReplayPageSize`) of a stream's messages after `afterId`. */
  readStream(streamId: string, afterId: number): Promise<StreamMessage[]>;
  lastEventId(streamId: string): Promise<number>;
  /** The stream an event id belongs to, if it belongs to this session (also when it was dropped). */
  streamOfEvent(sessionId: string, eventId: number): Promise<string | undefined>;
}
