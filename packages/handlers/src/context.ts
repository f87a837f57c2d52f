/**
 * What a handler is given each time it runs: the round, the answers to its previous ask, the state
 * it returned with that ask, who the exchange belongs to, and the ways it can talk to the client
 * while it runs.
 */
import type { ClientCapabilities, LoggingLevel } from '@modelcontextprotocol/server';
import type { AnsweredBy } from './addressed';

/**
 * Who an exchange belongs to. `subject` is the token's `sub` (its client id when it has none),
 * `clientId` the OAuth client it was issued to, `issuer` the authorization server, `scopes` what
 * it grants. `id` is the stable key everything is bound to (`anonymous` when the service runs
 * with AUTH_MODE=off). It names the caller, never carries a credential.
 */
export interface Principal {
  id: string;
  /**
   * A person (a token that names a user), or a service acting as itself (a client-credentials
   * token: no `sub`, or its client as `sub`). Absent for the anonymous caller of a service that
   * authenticates nobody.
   */
  kind?: 'person' | 'service';
  subject: string;
  clientId?: string;
  issuer?: string;
  scopes: string[];
  /**
   * What its token says of its holder for people to read: `name`, and `email` only when the issuer
   * says it is verified (each at most 256 characters). Self-chosen: show them beside `subject` and
   * `issuer`, never decide anything by them.
   */
  name?: string;
  email?: string;
}

/** One log method: a message, or an object of fields then a message (pino's shape). */
export interface LogMethod {
  (message: string, ...args: unknown[]): void;
  (fields: object, message?: string, ...args: unknown[]): void;
}

/** The service's log as a handler sees it; the service passes its pino logger, bound to the exchange. */
export interface HandlerLogger {
  trace: LogMethod;
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  fatal: LogMethod;
}

export interface HandlerContext {
  exchangeId: string;
  /** 1 on the first execution, then one more per answered ask. */
  round: number;
  /** The answers to the previous ask, raw, keyed as asked; empty on round 1. */
  inputResponses: Record<string, unknown>;
  /**
   * Who answered each addressed question of the previous ask (`elicitFrom`), by key, in the order
   * their answers were taken; absent for keys the caller answered.
   */
  answeredBy?: Record<string, AnsweredBy[]>;
  /**
   * The keys of the previous ask's addressed questions whose wait ended with no answer deciding
   * them (asked with `onExpiry: 'handler'`); `inputResponses` has nothing under them. Absent when
   * the previous ask was answered.
   */
  expired?: string[];
  /** The state this handler returned with its previous ask, verified and unsealed. */
  requestState?: string;
  clientCapabilities: ClientCapabilities;
  /**
   * Who the exchange belongs to: the subject, client, issuer and scopes of the token its first leg
   * carried (every later leg and answer was checked to come from the same principal), or the
   * anonymous principal when the service runs with AUTH_MODE=off. Authorize what the handler does
   * with it; it holds no credential to call anything else with (tokens are never passed through).
   */
  principal: Principal;
  /** The service's own log, for operators. */
  log: HandlerLogger;
  /**
   * Reports progress to the client (`notifications/progress`), if it sent a progress token and
   * is listening on a stream. Delivered through Postgres to whichever API replica holds the leg.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends a log message to the client (`notifications/message`), if it asked for logs at this
   * level or above (2026-07-28: `_meta` logLevel; legacy era: `logging/setLevel`).
   */
  sendLog(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Asks the client's stream to close now; a client that supports resumption (2025-11-25, SEP-1699)
   * reconnects and is replayed the rest of the call. Useful for long waits behind proxies.
   */
  closeStream(): Promise<void>;
  /**
   * Aborted when this execution's result will not be used: its task was cancelled or reached its
   * TTL (tasks/cancel, SEP-2663). A handler that waits or works for long should stop on it.
   */
  signal: AbortSignal;
}
