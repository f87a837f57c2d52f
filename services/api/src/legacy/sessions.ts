/**
 * Legacy sessions: opened by `initialize` on /mcp (Streamable HTTP) or by GET /sse
 * (2024-11-05), looked up on every request that names one, kept fresh while one of their streams is
 * open, and ended by DELETE /mcp or when a 2024-11-05 session's stream closes (ending the exchanges
 * they still run). A session belongs to the principal that opened it: a request or response
 * naming it under another principal finds no session (404), exactly as if it did not exist. Owns
 * the budgets of open sessions (MAX_OPEN_SESSIONS across the deployment, and
 * MAX_OPEN_SESSIONS_PER_PRINCIPAL for an authenticated principal; counted in Postgres, so every
 * replica refuses the same way).
 */
import type { Response } from 'express';
import type { LegacySession, LegacyStore } from '../../../../lib/db/legacy-store';
import type { Limits } from '../../../../lib/config';
import { sessionRef, type Logger } from '../../../../lib/log';
import { capacityExceeded, sessionNotFound } from '../../../../lib/protocol/error-catalog';
import { replyWithError } from '../http/error-reply';
import type { ExchangeGateway } from '../../../../lib/exchange-client/exchange-gateway';
import type { LegacyMethods } from './legacy-methods';
import { ANONYMOUS_PRINCIPAL_ID, type Principal } from '../../../../lib/exchange/principal';

export interface SessionsDeps {
  methods: LegacyMethods;
  legacy: LegacyStore;
  gateway: ExchangeGateway;
  limits: Pick<Limits, 'maxOpenSessions' | 'maxOpenSessionsPerPrincipal' | 'capacityRetryAfterS'>;
  log: Logger;
}

/** Clients of 2025-11-25 resume streams by event id (SEP-1699); older ones get no priming events. */
export function supportsResumption(session: LegacySession): boolean {
  return session.protocolVersion >= '2025-11-25';
}

/** How often an open stream notes that its session is in use (the store writes at most once a minute). */
const KEEP_ALIVE_MS = 60_000;

export function createSessions(deps: SessionsDeps) {
  const { methods, legacy, gateway, limits, log } = deps;

  /**
   * Refuses a new session while the deployment holds its limit of open ones, or `caller` (an
   * authenticated principal) holds its own (counted in Postgres).
   */
  async function checkCapacity(caller: Principal): Promise<void> {
    const { maxOpenSessions, maxOpenSessionsPerPrincipal, capacityRetryAfterS } = limits;
    // The anonymous principal (AUTH_MODE=off) is every caller at once: only the deployment's budget bounds it.
    if (caller.id === ANONYMOUS_PRINCIPAL_ID) {
      if ((await legacy.countOpenSessions()) >= maxOpenSessions) {
        throw capacityExceeded('open sessions', maxOpenSessions, capacityRetryAfterS);
      }
      return;
    }
    const open = await legacy.countOpenSessionsFor(caller.id);
    if (open.all >= maxOpenSessions) throw capacityExceeded('open sessions', maxOpenSessions, capacityRetryAfterS);
    if (open.principal >= maxOpenSessionsPerPrincipal) {
      throw capacityExceeded('open sessions of this principal', maxOpenSessionsPerPrincipal, capacityRetryAfterS);
    }
  }

  /**
   * Cancels the exchanges a session's calls still run. A call already answered with the pending
   * result is left running unless it waits on this session's client: its caller was told to fetch
   * the outcome with `await_answer`, from any session, and a question to someone else can still be
   * answered; one to the client that just left cannot.
   *
   * The cancels go out together: one slow or failing (Temporal busy, the exchange gone) holds none
   * of the others back. A failure is logged, and the session ends all the same: an exchange whose
   * cancel failed still ends at its round's timeout.
   */
  async function cancelCalls(filter: { sessionId: string } | { streamId: string }, reason: string): Promise<void> {
    const calls = await legacy.activeCalls(filter);
    const waitingOnClient = calls.some((call) => call.detachedThrough !== undefined)
      ? new Set((await legacy.openRequestsOfSession(calls[0]!.sessionId)).map((request) => request.exchangeId))
      : new Set<string>();
    const cancelled = calls.filter(
      (call) => call.detachedThrough === undefined || waitingOnClient.has(call.exchangeId),
    );
    const outcomes = await Promise.allSettled(cancelled.map((call) => gateway.cancel(call.exchangeId, reason)));
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome.status === 'fulfilled') continue;
      const { sessionId, exchangeId } = cancelled[index]!;
      log.warn(
        { ...sessionRef(sessionId), exchangeId, err: outcome.reason },
        `an exchange of an ending session could not be cancelled (${reason})`,
      );
    }
  }

  return {
    checkCapacity,
    newId: methods.newSessionId,

    /** `initialize` without a session (Streamable HTTP): negotiates and records a new session of `caller`. */
    async initialize(params: unknown, caller: Principal) {
      await checkCapacity(caller);
      const id = methods.newSessionId();
      const result = await methods.initialize(params, id, 'streamable-http', caller.id);
      log.info({ ...sessionRef(id), protocolVersion: result.protocolVersion }, 'session initialized');
      return { id, result };
    },

    /** `initialize` on a 2024-11-05 session that GET /sse already opened: records its handshake. */
    handshake: (session: LegacySession, params: unknown) => methods.initialize(params, session.id, 'http+sse'),

    /**
     * Records the session GET /sse opens (2024-11-05), before its handshake: its capabilities are
     * unknown until `initialize` comes on POST /messages. The caller checked the capacity first.
     */
    async openForStream(id: string, caller: Principal): Promise<void> {
      await legacy.createSession({
        id,
        transport: 'http+sse',
        protocolVersion: '2024-11-05',
        clientCapabilities: {},
        principal: caller.id,
      });
    },

    /**
     * The session `id` names, if it exists, has not ended and belongs to `caller`; notes that it is
     * in use. Another principal's session is not found: a leaked session id is no use to anyone else.
     */
    async find(id: string | undefined, caller: Principal): Promise<LegacySession | undefined> {
      if (!id) return undefined;
      const session = await legacy.getSession(id);
      if (!session || session.closed) return undefined;
      if (session.principal !== caller.id) {
        log.warn(sessionRef(id), 'session named under another principal; refused as unknown');
        return undefined;
      }
      await legacy.touchSession(id);
      return session;
    },

    /** Answers a request that named no live session. */
    refuseUnknown(res: Response, id?: string | number): void {
      replyWithError(res, 'legacy', sessionNotFound(), id);
    },

    /** Keeps a session's last-seen time fresh while one of its streams is open (see retention). */
    keepAlive(sessionId: string, stop: AbortSignal): void {
      const timer = setInterval(() => legacy.touchSession(sessionId).catch(() => undefined), KEEP_ALIVE_MS);
      timer.unref();
      stop.addEventListener('abort', () => clearInterval(timer), { once: true });
    },

    /** DELETE /mcp: ends the session and the exchanges it still runs. */
    async endByClient(session: LegacySession): Promise<void> {
      await cancelCalls({ sessionId: session.id }, 'session ended');
      await legacy.closeSession(session.id);
      log.info(sessionRef(session.id), 'session ended by the client');
    },

    /** A 2024-11-05 session lives as long as its stream: once it closed, its exchanges and the session end. */
    async endWithStream(sessionId: string, streamId: string): Promise<void> {
      await cancelCalls({ streamId }, 'session stream closed');
      await legacy.closeSession(sessionId);
    },

    /** Ends a 2024-11-05 session whose stream was gone before it opened. */
    async endUnopened(sessionId: string): Promise<void> {
      await legacy.closeSession(sessionId);
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
