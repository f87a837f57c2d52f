/**
 * The requestState the service hands to modern clients: a sealed pointer to one round of one
 * exchange, never the exchange itself (Temporal and Postgres hold that), nor the handler's own
 * state (the workflow carries it to the next round; the binding below already ties the token to
 * the one ask it answers, so a copy inside would add bytes and no safety).
 *
 * The spec makes requestState attacker-controlled input (MCP 2026-07-28, basic/patterns/mrtr:
 * servers MUST protect its integrity and reject state that fails verification). The sealed claims
 * bind it to the exchange, the round, a digest of the original request, the caller's principal
 * and an expiry. Verification failures carry a reason for the log; the client only ever sees one
 * "Invalid or expired requestState" error.
 */
import type { Sealer } from './sealer';
import { SealError } from './sealer';

/**
 * `ask`: the client answers the ask of `round`.
 * `wait`: the client comes back for the outcome of `round`, which was not ready in time.
 */
export type RequestStateKind = 'ask' | 'wait';

export interface RequestStateClaims {
  exchangeId: string;
  round: number;
  kind: RequestStateKind;
  requestDigest: string;
  principal: string;
  /** `wait` after answering: the answers this client sent, checked against the round's when it lands. */
  answersDigest?: string;
  /** `wait`: the last notification of the round this client was sent, so none is sent twice. */
  afterEvent?: number;
  /**
   * How many results of this call's retry loop (its client's driver) were input-required so far,
   * this one included, and how many of them were state-only: what its client will still tolerate
   * is counted from them (lib/exchange-rules/client-patience.ts).
   */
  legs?: number;
  waits?: number;
  /** The loop joined a call another loop started (a repeat, `await_answer`): it never withdraws that call. */
  joined?: true;
}

export type RequestStateFailure =
  SealError['reason'] | 'claims' | 'expired' | 'request-mismatch' | 'principal-mismatch';

export class RequestStateError extends Error {
  override readonly name = 'RequestStateError';
  constructor(readonly reason: RequestStateFailure) {
    super(`requestState rejected: ${reason}`);
  }
}

interface SealedClaims {
  v: 1;
  x: string;
  r: number;
  k: RequestStateKind;
  d: string;
  p: string;
  exp: number;
  a?: string;
  e?: number;
  l?: number;
  w?: number;
  j?: 1;
}

export interface RequestStateCodec {
  mint(claims: RequestStateClaims): string;
  /** Verifies a token against the request it arrived with; throws `RequestStateError`. */
  verify(token: string, expected: { requestDigest: string; principal: string }): RequestStateClaims;
}

// The context string is fixed: the binding lives in the sealed claims, checked after opening.
const CONTEXT = 'mcp-request-state-v1';

export function createRequestStateCodec(
  sealer: Sealer,
  ttlMs: number,
  now: () => number = Date.now,
): RequestStateCodec {
  return {
    mint(claims) {
      const sealed: SealedClaims = {
        v: 1,
        x: claims.exchangeId,
        r: claims.round,
        k: claims.kind,
        d: claims.requestDigest,
        p: claims.principal,
        exp: now() + ttlMs,
        ...(claims.answersDigest !== undefined ? { a: claims.answersDigest } : {}),
        ...(claims.afterEvent !== undefined ? { e: claims.afterEvent } : {}),
        ...(claims.legs !== undefined ? { l: claims.legs } : {}),
        ...(claims.waits !== undefined ? { w: claims.waits } : {}),
        ...(claims.joined ? { j: 1 as const } : {}),
      };
      return sealer.seal('request-state', JSON.stringify(sealed), CONTEXT);
    },

    verify(token, expected) {
      let claims: SealedClaims;
      try {
        claims = JSON.parse(sealer.open('request-state', token, CONTEXT)) as SealedClaims;
      } catch (error) {
        throw new RequestStateError(error instanceof SealError ? error.reason : 'claims');
      }
      if (!isSealedClaims(claims)) throw new RequestStateError('claims');
      if (claims.exp <= now()) throw new RequestStateError('expired');
      if (claims.d !== expected.requestDigest) throw new RequestStateError('request-mismatch');
      if (claims.p !== expected.principal) throw new RequestStateError('principal-mismatch');
      return {
        exchangeId: claims.x,
        round: claims.r,
        kind: claims.k,
        requestDigest: claims.d,
        principal: claims.p,
        ...(typeof claims.a === 'string' ? { answersDigest: claims.a } : {}),
        ...(Number.isInteger(claims.e) ? { afterEvent: claims.e } : {}),
        ...(Number.isInteger(claims.l) ? { legs: claims.l } : {}),
        ...(Number.isInteger(claims.w) ? { waits: claims.w } : {}),
        ...(claims.j === 1 ? { joined: true as const } : {}),
      };
    },
  };
}

function isSealedClaims(value: unknown): value is SealedClaims {
  const c = value as Partial<SealedClaims> | null;
  return (
    !!c &&
    c.v === 1 &&
    typeof c.x === 'string' &&
    Number.isInteger(c.r) &&
    (c.k === 'ask' || c.k === 'wait') &&
    typeof c.d === 'string' &&
    typeof c.p === 'string' &&
    typeof c.exp === 'number'
  );
}
