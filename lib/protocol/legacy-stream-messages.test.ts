// Pins the messages a legacy call's stream carries of its exchange, and the keys they go under.
import { RELATED_TASK_META_KEY } from './legacy-tasks';
import { askRequestEntries, endingEntries, eventEntry, type StreamCall } from './legacy-stream-messages';
import { streamKeys } from './legacy-stream-keys';
import { reverseRequestId } from './reverse-request-id';

const exchangeId = '7f1c2a3b-0000-4000-8000-000000000001';
const call: StreamCall = { requestIdJson: 7 };

describe('askRequestEntries', () => {
  const ask = {
    kind: 'ask' as const,
    inputRequests: {
      name: { method: 'elicitation/create', params: { message: 'Your name?', requestedSchema: {} } },
      roots: { method: 'roots/list' },
    },
  };

  it('makes one server-to-client request per key, in order, with its own id and stream key', () => {
    const [name, roots] = askRequestEntries(call, exchangeId, 2, ask);
    const nameId = reverseRequestId(exchangeId, 2, 'name');
    expect(name).toEqual({
      key: 'name',
      serverRequestId: nameId,
      messageKey: streamKeys.request(nameId),
      message: {
        jsonrpc: '2.0',
        id: nameId,
        method: 'elicitation/create',
        params: { message: 'Your name?', requestedSchema: {} },
      },
    });
    // A request without params goes out without them.
    expect(roots!.message).toEqual({
      jsonrpc: '2.0',
      id: reverseRequestId(exchangeId, 2, 'roots'),
      method: 'roots/list',
    });
  });

  it("names the call's task in each request's related-task _meta, beside the request's own _meta", () => {
    const withMeta = { kind: 'ask' as const, inputRequests: { a: { method: 'x', params: { _meta: { mine: 1 } } } } };
    const [a] = askRequestEntries({ ...call, taskId: 'task-1' }, exchangeId, 1, withMeta);
    expect(a!.message.params).toEqual({ _meta: { mine: 1, [RELATED_TASK_META_KEY]: { taskId: 'task-1' } } });
    const [roots] = askRequestEntries({ ...call, taskId: 'task-1' }, exchangeId, 1, {
      kind: 'ask',
      inputRequests: { roots: { method: 'roots/list' } },
    });
    expect(roots!.message.params).toEqual({ _meta: { [RELATED_TASK_META_KEY]: { taskId: 'task-1' } } });
  });
});

describe('endingEntries', () => {
  it('withdraws each open request once, then answers the call with its result, the final message', () => {
    const done = { kind: 'complete' as const, result: { content: [] } };
    expect(endingEntries(call, exchangeId, done, ['r1', 'r2'])).toEqual([
      {
        messageKey: streamKeys.withdrawal('r1'),
        message: {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'r1', reason: 'The request completed' },
        },
      },
      {
        messageKey: streamKeys.withdrawal('r2'),
        message: {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'r2', reason: 'The request completed' },
        },
      },
      {
        messageKey: streamKeys.response(exchangeId),
        message: { jsonrpc: '2.0', id: 7, result: { content: [] } },
        final: true,
      },
    ]);
  });

  it("gives an error's message as the reason, and the error as the response", () => {
    const error = { code: -32001, message: 'The round expired' };
    const [withdrawal, response] = endingEntries({ requestIdJson: 'a' }, exchangeId, { kind: 'error', error }, ['r']);
    expect(withdrawal!.message.params).toEqual({ requestId: 'r', reason: 'The round expired' });
    expect(response!.message).toEqual({ jsonrpc: '2.0', id: 'a', error });
  });
});

describe('eventEntry', () => {
  it("renders progress with the call's token, and none without one", () => {
    const progress = { kind: 'progress' as const, progress: 1, total: 2 };
    expect(eventEntry({ ...call, progressToken: 'p' }, 5, progress)).toEqual({
      messageKey: streamKeys.notification(5),
      message: {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress: 1, total: 2 },
      },
    });
    expect(eventEntry(call, 5, progress)).toBeUndefined();
  });

  it('renders a log message, and a request to close the stream as an empty control entry', () => {
    expect(eventEntry(call, 6, { kind: 'log', level: 'info', data: 'hi' })?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'hi' },
    });
    expect(eventEntry(call, 8, { kind: 'close-stream' })).toEqual({
      messageKey: streamKeys.closeStream(8),
      message: {},
    });
  });
});
