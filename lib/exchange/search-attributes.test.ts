// Pins the one list of search attributes against what docker-compose registers, and keeps it within
// what SQL visibility (compose's Postgres, the dev server's SQLite) accepts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  SEARCH_ATTRIBUTE_FLAGS,
  SEARCH_ATTRIBUTES,
  SQL_VISIBILITY_LIMITS,
  waitingLongerThanQuery,
} from './search-attributes';

describe('search attributes', () => {
  it('are the flags the Temporal CLI takes', () => {
    expect(SEARCH_ATTRIBUTE_FLAGS).toEqual([
      'McpMethod=Keyword',
      'McpTarget=Keyword',
      'ExchangeStatus=Keyword',
      'ExchangeRound=Int',
      'McpEra=Keyword',
      'McpClientName=Keyword',
      'McpSession=Keyword',
      'WaitingSince=Datetime',
      'McpPrincipal=Keyword',
      'HandlerVersion=Keyword',
      'AnsweredBy=KeywordList',
      'WaitingOn=KeywordList',
    ]);
  });

  it('are registered by docker-compose exactly as in code', () => {
    const compose = readFileSync(path.join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8');
    const line = /SEARCH_ATTRIBUTES:\s*(.+)/.exec(compose)?.[1]?.trim();
    expect(line?.split(/\s+/)).toEqual(SEARCH_ATTRIBUTE_FLAGS);
  });

  it('stay within the per-type limits of SQL visibility', () => {
    const counts: Record<string, number> = {};
    for (const key of SEARCH_ATTRIBUTES) counts[key.type] = (counts[key.type] ?? 0) + 1;
    for (const [type, count] of Object.entries(counts)) {
      expect({
        type,
        count: Math.min(count, SQL_VISIBILITY_LIMITS[type as keyof typeof SQL_VISIBILITY_LIMITS]),
      }).toEqual({ type, count });
    }
    expect(new Set(SEARCH_ATTRIBUTES.map((key) => key.name)).size).toBe(SEARCH_ATTRIBUTES.length);
  });

  it('find the exchanges waiting longer than a given time with one query', () => {
    expect(waitingLongerThanQuery(5 * 60_000, new Date('2026-08-01T12:00:00.000Z'))).toBe(
      'ExecutionStatus = "Running" AND WaitingSince < "2026-08-01T11:55:00.000Z"',
    );
  });
});
