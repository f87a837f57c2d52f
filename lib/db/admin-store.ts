/**
 * The operator's read model of exchanges (the admin API, `npm run exchanges`): lists filtered and
 * paged, and one exchange with its rounds. Read-only: what an operator changes goes through
 * Temporal (a cancel is a signal), never into these rows.
 *
 * A legacy session is named by its tag (the first 12 hex digits of the SHA-256 of its id,
 * as logs name it), never by its id, which is the client's credential.
 */
import type { Era, ExchangeMethod, ExchangeStatus, OutcomeKind } from '../exchange/types';

export interface ExchangeFilter {
  /** Any of these statuses. */
  status?: ReadonlyArray<ExchangeStatus>;
  method?: ExchangeMethod;
  /** The exact tool or prompt name, or resource URI. */
  target?: string;
  era?: Era;
  /** A legacy session's tag. */
  sessionTag?: string;
  /** The principal's stable key, exactly (lib/exchange/principal.ts). */
  principal?: string;
  /** The version of the handlers that started it, exactly (`demo@0.1.0`). */
  handlerVersion?: string;
  /** Created more than this many seconds ago. */
  olderThanS?: number;
  /** Created less than this many seconds ago. */
  newerThanS?: number;
}

/** Where a page ends, in the list's order (newest first): the last row's creation time and id. */
export interface ListPosition {
  /** `created_at` to the microsecond, ISO 8601 in UTC. */
  createdAt: string;
  id: string;
}

export interface ExchangeSummary {
  id: string;
  workflowId: string;
  status: ExchangeStatus;
  era: Era;
  method: ExchangeMethod;
  target: string;
  principal: string;
  /** Its caller's display name and verified email, as its token said them (absent when it said none, or before they were kept). */
  principalName?: string;
  principalEmail?: string;
  /** The version of the handlers that started it; absent for an exchange started before versions were recorded. */
  handlerVersion?: string;
  /** The last recorded round, and how many asks were made. */
  rounds: number;
  asks: number;
  createdAt: Date;
  updatedAt: Date;
  /** The legacy session's tag. */
  session?: string;
  /** What the last recorded round was. */
  lastOutcome?: OutcomeKind;
  /** The error it ended with (when the last recorded round is one), and the class of a stuck workflow's (`data.cause`). */
  error?: { code: number; message: string; cause?: string };
  /** A running exchange waiting on an ask: since when, and until when. */
  waitingSince?: Date;
  deadlineAt?: Date;
  /** Where this row stands in the list order (for the next page's cursor). */
  position: ListPosition;
}

export interface RoundDetail {
  round: number;
  kind: OutcomeKind;
  /** The answers this round's handler ran with (the answers to the previous round's ask), raw, as keyed. */
  answers?: Record<string, unknown>;
  /** The recorded outcome: the ask's requests, the result, or the error (the handler's sealed state left out). */
  outcome: Record<string, unknown>;
  durationMs?: number;
  recordedAt: Date;
  /** An ask's deadline. */
  deadlineAt?: Date;
}

export interface SessionDetail {
  tag: string;
  transport: string;
  protocolVersion: string;
  clientInfo?: Record<string, unknown>;
  closed: boolean;
}

export interface ExchangeDetail {
  exchange: ExchangeSummary;
  /** Every recorded round, oldest first. */
  history: RoundDetail[];
  /** The legacy session the exchange's call came from, while it is kept. */
  session?: SessionDetail;
}

export interface AdminStore {
  /** Up to `limit` exchanges matching `filter`, newest first, after `after` (the previous page's last position). */
  listExchanges(filter: ExchangeFilter, page: { limit: number; after?: ListPosition }): Promise<ExchangeSummary[]>;
  /** One exchange with its rounds (oldest first) and its session; undefined when unknown. */
  getExchange(id: string): Promise<ExchangeDetail | undefined>;
}
