import { toNotification } from './notifications';

describe('toNotification', () => {
  it('puts the delivering request progress token on a progress event', () => {
    expect(toNotification({ kind: 'progress', progress: 1, total: 3, message: 'one' }, 'tok-7')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'tok-7', progress: 1, total: 3, message: 'one' },
    });
  });

  it('leaves out what the event does not carry', () => {
    expect(toNotification({ kind: 'progress', progress: 2 }, 4)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 4, progress: 2 },
    });
  });

  it('shows no progress to a request without a token', () => {
    expect(toNotification({ kind: 'progress', progress: 1 }, undefined)).toBeUndefined();
  });

  it('renders every stored log event: which levels a client gets was decided when it was stored', () => {
    expect(toNotification({ kind: 'log', level: 'debug', data: { a: 1 }, logger: 'deploy' }, undefined)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'debug', data: { a: 1 }, logger: 'deploy' },
    });
  });

  it('renders nothing for the end of a stream', () => {
    expect(toNotification({ kind: 'close-stream' }, 'tok')).toBeUndefined();
  });
});
