// Pins what the worker's start-up check refuses: a namespace that lacks a search attribute the
// workflows write (WaitingOn, before an upgrade registered it), or has it with another type.
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from '../exchange/search-attributes';
import { checkSearchAttributes, unregisteredMessage, unregisteredSearchAttributes } from './search-attribute-check';
import { createLogger } from '../log';

const T = temporal.api.enums.v1.IndexedValueType;
const all = Object.fromEntries(SEARCH_ATTRIBUTES.map((key) => [key.name, T[`INDEXED_VALUE_TYPE_${key.type}`]]));
const log = createLogger('test', 'silent');

describe('the search attribute check', () => {
  it('passes a namespace with every attribute', () => {
    expect(unregisteredSearchAttributes(all)).toEqual([]);
  });

  it('names a missing attribute and one of another type', () => {
    const { WaitingOn: _missing, ...rest } = all;
    expect(unregisteredSearchAttributes({ ...rest, AnsweredBy: T.INDEXED_VALUE_TYPE_KEYWORD })).toEqual([
      'AnsweredBy=KeywordList',
      'WaitingOn=KeywordList',
    ]);
  });

  it('refuses the start with the command that registers it', async () => {
    const { WaitingOn: _missing, ...rest } = all;
    const operator = { listSearchAttributes: async () => ({ customAttributes: rest }) };
    await expect(checkSearchAttributes(operator, 'exchanges', log)).rejects.toThrow(
      unregisteredMessage('exchanges', ['WaitingOn=KeywordList']),
    );
    expect(unregisteredMessage('exchanges', ['WaitingOn=KeywordList'])).toContain(
      'temporal operator search-attribute create --namespace exchanges --name WaitingOn --type KeywordList',
    );
  });

  it('starts when the attributes cannot be listed', async () => {
    const operator = {
      listSearchAttributes: async () => {
        throw new Error('PERMISSION_DENIED');
      },
    };
    await expect(checkSearchAttributes(operator, 'exchanges', log)).resolves.toBeUndefined();
  });
});
