// Pins the one list of search attributes against what docker-compose registers.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SEARCH_ATTRIBUTE_FLAGS } from './search-attributes';

describe('search attributes', () => {
  it('are the flags the Temporal CLI takes', () => {
    expect(SEARCH_ATTRIBUTE_FLAGS).toEqual([
      'McpMethod=Keyword',
      'McpTarget=Keyword',
      'ExchangeStatus=Keyword',
      'ExchangeRound=Int',
      'McpPrincipal=Keyword',
    ]);
  });

  it('are registered by docker-compose exactly as in code', () => {
    const compose = readFileSync(path.join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8');
    const line = /SEARCH_ATTRIBUTES:\s*(.+)/.exec(compose)?.[1]?.trim();
    expect(line?.split(/\s+/)).toEqual(SEARCH_ATTRIBUTE_FLAGS);
  });
});
