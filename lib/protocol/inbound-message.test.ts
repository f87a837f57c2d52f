// Pins how an inbound message's envelope is read: the SDK's JSON-RPC schemas decide, each refusal
// keeps its code and names its field, the id is echoed when readable, and the message passes on as sent.
import { readInboundMessage } from './inbound-message';
import { INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR } from './json-rpc-codes';
import { RpcError } from './rpc-error';

const budget = { maxJsonDepth: 8, maxRequestIdLength: 16 };

function refusal(message: unknown): { code: number; data?: unknown; message: string; id?: unknown } {
  try {
    readInboundMessage(typeof message === 'string' ? message : JSON.stringify(message), budget);
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    return { ...error.toJson(), id: (error as RpcError & { id?: unknown }).id };
  }
  throw new Error('expected a refusal');
}

describe('readInboundMessage', () => {
  it('passes a request, a notification, a result and an error response on as they were sent', () => {
    const request = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'x', _meta: { progressToken: 'p' } },
    };
    const notification = { jsonrpc: '2.0', method: 'notifications/initialized' };
    const result = { jsonrpc: '2.0', id: 'mcp-srq:1', result: { action: 'accept', content: { name: 'Ada' } } };
    const error = { jsonrpc: '2.0', id: 'mcp-srq:2', error: { code: -32601, message: 'no' } };
    for (const message of [request, notification, result, error])
      expect(readInboundMessage(JSON.stringify(message), budget)).toEqual(message);
  });

  it('answers text that is not JSON with -32700', () => {
    expect(refusal('{"jsonrpc":')).toMatchObject({ code: PARSE_ERROR });
  });

  it.each([[[{ jsonrpc: '2.0', id: 1, method: 'ping' }]], [null], ['"ping"'], [7]])(
    'refuses %j, which is not one object, with -32600',
    (message) => {
      expect(refusal(message)).toMatchObject({ code: INVALID_REQUEST, id: undefined });
    },
  );

  it.each([
    ['a wrong jsonrpc', { jsonrpc: '1.0', id: 3, method: 'ping' }, 'jsonrpc', 3],
    ['no jsonrpc', { id: 3, method: 'ping' }, 'jsonrpc', 3],
    ['a method that is not a string', { jsonrpc: '2.0', id: 3, method: 5 }, 'method', 3],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }, 'id', null],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, 'id', 1.5],
    ['an unknown top-level field', { jsonrpc: '2.0', id: 3, method: 'ping', extra: true }, 'extra', 3],
    ['a response with neither result nor error', { jsonrpc: '2.0', id: 'r1' }, 'result', 'r1'],
    ['a result that is not an object', { jsonrpc: '2.0', id: 'r1', result: 5 }, 'result', 'r1'],
    ['an error without a code', { jsonrpc: '2.0', id: 'r1', error: { message: 'x' } }, 'error.code', 'r1'],
  ])('refuses %s with -32600 naming the field and echoing the id', (_what, message, path, id) => {
    expect(refusal(message)).toMatchObject({ code: INVALID_REQUEST, data: { path }, id });
  });

  it.each([
    ['params that are not an object', { jsonrpc: '2.0', id: 4, method: 'tools/list', params: [] }, 'params'],
    [
      'a mistyped progress token',
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { _meta: { progressToken: {} } } },
      'params._meta.progressToken',
    ],
  ])('refuses %s with -32602 naming the field', (_what, message, path) => {
    expect(refusal(message)).toMatchObject({ code: INVALID_PARAMS, data: { path }, id: 4 });
  });

  it('refuses a string id over the budget with -32600 and path id, without echoing it', () => {
    expect(refusal({ jsonrpc: '2.0', id: 'i'.repeat(17), method: 'ping' })).toMatchObject({
      code: INVALID_REQUEST,
      data: { path: 'id', limit: 16 },
      id: undefined,
    });
  });

  it('refuses nesting past the budget and unstorable strings with -32602, echoing the id', () => {
    const deep = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { arguments: { a: [[[[[[[[1]]]]]]]] } } };
    expect(refusal(deep)).toMatchObject({ code: INVALID_PARAMS, data: { maxDepth: 8 }, id: 9 });
    const nul = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'a\u0000' } };
    expect(refusal(nul)).toMatchObject({ code: INVALID_PARAMS, data: { path: 'params.name' }, id: 9 });
  });
});
