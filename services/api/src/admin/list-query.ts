/**
 * What `GET /admin/exchanges` takes, read strictly: every query parameter is known, given once and
 * well formed, or the request is refused (400) naming it. Pure, so it is unit-tested beside it.
 *
 * | parameter | meaning |
 * |---|---|
 * | `status` | one status or a comma-separated list (running, completed, failed, expired, capped, cancelled, terminated) |
 * | `method` | tools/call, prompts/get or resources/read |
 * | `target` | the exact tool or prompt name, or resource URI |
 * | `era` | modern or legacy |
 * | `session` | a legacy session's tag (12 hex digits, as logs name it) or its id |
 * | `principal` | the principal's key, exactly (`anonymous` without authorization; `<issuer>|<subject>[|<client>]` with it) |
 * | `handlerVersion` | the version of the handlers that started it, exactly (`demo@0.1.0`, `acme-tools@1.2.0`) |
 * | `olderThan` / `newerThan` | created more / less than this many seconds ago |
 * | `limit` | page size, 1 to `MAX_LIST_LIMIT` (default `DEFAULT_LIST_LIMIT`) |
 * | `cursor` | the `nextCursor` of the previous page |
 */
import type { ExchangeFilter, ListPosition } from '../../../../lib/db/admin-store';
import { EXCHANGE_METHODS } from '../../../../lib/exchange/exchange-methods';
import type { Era, ExchangeMethod, ExchangeStatus } from '../../../../lib/exchange/types';
import { MAX_PRINCIPAL_ID_LENGTH } from '../../../../lib/exchange/principal';
import { MAX_KEYWORD_CHARS } from '../../../../lib/exchange/search-attributes';
import { sessionRef } from '../../../../lib/log';
import { InvalidParameter } from './admin-errors';
import { UUID } from '../../../../lib/exchange/uuid';

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 200;
/** Ten years: an age beyond it is a typo, not a question. */
const MAX_AGE_S = 10 * 365 * 86_400;

const STATUSES: readonly ExchangeStatus[] = [
  'running',
  'completed',
  'failed',
  'expired',
  'capped',
  'cancelled',
  'terminated',
];
const METHODS: readonly ExchangeMethod[] = EXCHANGE_METHODS;
const ERAS: readonly Era[] = ['modern', 'legacy'];
const FILTERS = [
  'status',
  'method',
  'target',
  'era',
  'session',
  'principal',
  'handlerVersion',
  'olderThan',
  'newerThan',
];
const KNOWN = [...FILTERS, 'limit', 'cursor'];

export interface ListQuery {
  filter: ExchangeFilter;
  limit: number;
  after?: ListPosition;
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidParameter(name, `${name} must be given once, as a plain value`);
  return value;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new InvalidParameter(name, `${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function wholeNumber(name: string, value: string, min: number, max: number): number {
  const n = /^\d{1,12}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new InvalidParameter(name, `${name} must be a whole number from ${min} to ${max}`);
  return n;
}

const POSITION_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The opaque cursor of the page after `position`. */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 2 ||
    typeof decoded[0] !== 'string' ||
    typeof decoded[1] !== 'string' ||
    !POSITION_TIME.test(decoded[0]) ||
    !UUID.test(decoded[1])
  )
    throw new InvalidParameter('cursor', 'cursor is not one this server gave out (use the nextCursor of a page)');
  return { createdAt: decoded[0], id: decoded[1] };
}

/** A session filter as the tag it names: a tag as given, or the tag of a session id. */
function sessionTagOf(value: string): string {
  if (/^[0-9a-f]{12}$/.test(value)) return value;
  if (value.length === 0 || value.length > 256)
    throw new InvalidParameter('session', 'session must be a session tag (12 hex digits) or a session id');
  return sessionRef(value).session;
}

export function parseListQuery(query: Record<string, unknown>): ListQuery {
  const unknown = Object.keys(query).find((name) => !KNOWN.includes(name));
  if (unknown !== undefined)
    throw new InvalidParameter(unknown, `unknown query parameter ${unknown} (known: ${KNOWN.join(', ')})`);

  const filter: ExchangeFilter = {};
  const status = single(query, 'status');
  if (status !== undefined) filter.status = [...new Set(status.split(',').map((s) => oneOf('status', s, STATUSES)))];
  const method = single(query, 'method');
  if (method !== undefined) filter.method = oneOf('method', method, METHODS);
  const target = single(query, 'target');
  if (target !== undefined) {
    if (target.length === 0) throw new InvalidParameter('target', 'target must not be empty');
    filter.target = target;
  }
  const era = single(query, 'era');
  if (era !== undefined) filter.era = oneOf('era', era, ERAS);
  const session = single(query, 'session');
  if (session !== undefined) filter.sessionTag = sessionTagOf(session);
  const principal = single(query, 'principal');
  if (principal !== undefined) {
    if (principal.length === 0 || principal.length > MAX_PRINCIPAL_ID_LENGTH)
      throw new InvalidParameter(
        'principal',
        `principal must be a principal's key (1 to ${MAX_PRINCIPAL_ID_LENGTH} characters)`,
      );
    filter.principal = principal;
  }
  const handlerVersion = single(query, 'handlerVersion');
  if (handlerVersion !== undefined) {
    if (handlerVersion.length === 0 || handlerVersion.length > MAX_KEYWORD_CHARS)
      throw new InvalidParameter(
        'handlerVersion',
        `handlerVersion must be a handler version, as exchanges show it (1 to ${MAX_KEYWORD_CHARS} characters)`,
      );
    filter.handlerVersion = handlerVersion;
  }
  const olderThan = single(query, 'olderThan');
  if (olderThan !== undefined) filter.olderThanS = wholeNumber('olderThan', olderThan, 0, MAX_AGE_S);
  const newerThan = single(query, 'newerThan');
  if (newerThan !== undefined) filter.newerThanS = wholeNumber('newerThan', newerThan, 1, MAX_AGE_S);

  const limitValue = single(query, 'limit');
  const limit = limitValue === undefined ? DEFAULT_LIST_LIMIT : wholeNumber('limit', limitValue, 1, MAX_LIST_LIMIT);
  const cursor = single(query, 'cursor');
  return { filter, limit, ...(cursor !== undefined ? { after: decodeCursor(cursor) } : {}) };
}
