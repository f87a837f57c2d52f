import { comeBackReply } from './come-back-reply';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const leg = (params: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'refund_order', _meta: META, ...params },
  });

describe('what the front door answers while the service restarts', () => {
  it('gives a 2026-07-28 leg that came back its own requestState again, state only', () => {
    const reply = comeBackReply('POST', '/mcp', leg({ requestState: 'sealed-state' }), 2);
    expect(reply.status).toBe(200);
    expect(reply.headers).toEqual({ Connection: 'close' });
    expect(reply.body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: {
        resultType: 'input_required',
        inputRequests: {},
        requestState: 'sealed-state',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'durable-mcp', version: '0.1.0' } },
      },
    });
  });

  it('answers 503 with Retry-After where a state-only result would lose something or there is no state', () => {
    const busy = (body: string, method = 'POST', path = '/mcp') => comeBackReply(method, path, body, 2);
    const cases = [
      busy(leg({})), // a first leg: no exchange yet
      busy(leg({ requestState: 's', inputResponses: { approval: { action: 'accept' } } })), // answers to keep
      busy(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { requestState: 's' } })), // no 2026 envelope
      busy('', 'GET'), // a handshake-era stream resumption
      busy('not json'),
    ];
    for (const reply of cases) {
      expect(reply.status).toBe(503);
      expect(reply.headers).toEqual({ 'Retry-After': '2', Connection: 'close' });
      expect(reply.body).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Service restarting; retry after 2 s', data: { retryAfterS: 2 } },
      });
    }
    expect(cases[0]!.body).toMatchObject({ id: 7 });
    expect(cases[4]!.body).toMatchObject({ id: null });
  });
});
