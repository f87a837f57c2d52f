// Pins what GET /admin/exchanges takes: each filter, the page size bounds, the cursor, and a 400
// naming the parameter for anything else.
import { InvalidParameter } from './admin-errors';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, decodeCursor, encodeCursor, parseListQuery } from './list-query';
import { sessionRef } from '../../../../lib/log';

function refusal(query: Record<string, unknown>): InvalidParameter {
  try {
    parseListQuery(query);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParameter);
    return error as InvalidParameter;
  }
  throw new Error(`accepted ${JSON.stringify(query)}`);
}

const position = { createdAt: '2026-12-01T13:02:09.719870Z', id: 'd4c8db0f-f213-43c1-a995-5d5aa381be64' };

describe('parseListQuery', () => {
  it('lists everything, newest first, a default page at a time, when given nothing', () => {
    expect(parseListQuery({})).toEqual({ filter: {}, limit: DEFAULT_LIST_LIMIT });
  });

  it('reads every filter', () => {
    expect(
      parseListQuery({
        status: 'running,expired,running',
        method: 'resources/read',
        target: 'file:///runbooks/{name}',
        era: 'legacy',
        session: '0123456789ab',
        principal: 'https://auth.example.com|alice',
        handlerVersion: 'acme-tools@1.2.0',
        olderThan: '300',
        newerThan: '86400',
        limit: String(MAX_LIST_LIMIT),
        cursor: encodeCursor(position),
      }),
    ).toEqual({
      filter: {
        status: ['running', 'expired'],
        method: 'resources/read',
        target: 'file:///runbooks/{name}',
        era: 'legacy',
        sessionTag: '0123456789ab',
        principal: 'https://auth.example.com|alice',
        handlerVersion: 'acme-tools@1.2.0',
        olderThanS: 300,
        newerThanS: 86_400,
      },
      limit: MAX_LIST_LIMIT,
      after: position,
    });
  });

  it('takes a session id as the tag logs name that session by, so the id never reaches a query', () => {
    const id = 'a3d1f7c2-58e4-4b7a-9c0e-2f6b1d8e4a90';
    expect(parseListQuery({ session: id }).filter.sessionTag).toBe(sessionRef(id).session);
  });

  it.each([
    [{ status: 'waiting' }, 'status'],
    [{ status: 'running,' }, 'status'],
    [{ status: ['running', 'failed'] }, 'status'],
    [{ method: 'tools/list' }, 'method'],
    [{ era: 'MODERN' }, 'era'],
    [{ target: '' }, 'target'],
    [{ session: '' }, 'session'],
    [{ session: 'x'.repeat(257) }, 'session'],
    [{ principal: '' }, 'principal'],
    [{ principal: 'x'.repeat(256) }, 'principal'],
    [{ principal: ['anonymous', 'anonymous'] }, 'principal'],
    [{ handlerVersion: '' }, 'handlerVersion'],
    [{ handlerVersion: 'x'.repeat(101) }, 'handlerVersion'],
    [{ olderThan: '1.5' }, 'olderThan'],
    [{ olderThan: '' }, 'olderThan'],
    [{ olderThan: '9999999999999' }, 'olderThan'],
    [{ newerThan: '0' }, 'newerThan'],
    [{ limit: '0' }, 'limit'],
    [{ limit: String(MAX_LIST_LIMIT + 1) }, 'limit'],
    [{ limit: '0x10' }, 'limit'],
    [{ cursor: 'not base64 json' }, 'cursor'],
    [{ cursor: Buffer.from('["2026-12-01", "x"]').toString('base64url') }, 'cursor'],
    [{ cursor: Buffer.from(JSON.stringify([position.createdAt, 'DROP TABLE'])).toString('base64url') }, 'cursor'],
    [{ order: 'asc' }, 'order'],
  ])('refuses %j naming %s', (query, parameter) => {
    const error = refusal(query);
    expect(error.parameter).toBe(parameter);
    expect(error.message).toContain(parameter);
  });
});

describe('cursors', () => {
  it('round-trip a list position to the microsecond', () => {
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });
});
