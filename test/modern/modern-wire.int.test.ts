/**
 * The 2026-07-28 wire contract of POST /mcp: the validation ladder's codes and HTTP statuses in
 * their order, the request id echoed on every error, and the shapes of non-exchange results.
 */
import { rawCall, rawPost, MODERN_HEADERS, MODERN_META } from '../support/raw-mcp';
import { useTestService } from '../support/test-service';

describe('modern wire contract', () => {
  const service = useTestService({ MAX_BODY_BYTES: '4096' });

  const request = (method: string, params: Record<string, unknown> = {}, id: number | string = 7) => ({
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: { ...MODERN_META, ...((params._meta as object) ?? {}) } },
  });

  it('answers server/discover with versions, capabilities, cache hints and server identity', async () => {
    const reply = await rawCall(service.url, 'server/discover', {});
    expect(reply.status).toBe(200);
    expect(reply.body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'durable-mcp' } },
    });
    expect(typeof reply.body.result!.ttlMs).toBe('number');
  });

  it('lists tools as a complete, cacheable result', async () => {
    const reply = await rawCall(service.url, 'tools/list', {});
    expect(reply.body.result).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
    expect((reply.body.result!.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(
      expect.arrayContaining(['greet', 'guess_number']),
    );
  });

  it('rejects a missing MCP-Protocol-Version header with 400 and -32020, echoing the id', async () => {
    const reply = await rawPost(service.url, request('tools/list', {}, 'abc'), { 'mcp-method': 'tools/list' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ id: 'abc', error: { code: -32020 } });
  });

  it('rejects an Mcp-Method header that disagrees with the body with -32020', async () => {
    const reply = await rawPost(service.url, request('tools/list'), {
      ...MODERN_HEADERS,
      'mcp-method': 'prompts/list',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code).toBe(-32020);
  });

  it('rejects an Mcp-Name header that disagrees with the tool name with -32020', async () => {
    const reply = await rawPost(service.url, request('tools/call', { name: 'greet', arguments: {} }), {
      ...MODERN_HEADERS,
      'mcp-method': 'tools/call',
      'mcp-name': 'guess_number',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code).toBe(-32020);
  });

  it('accepts a base64-sentinel Mcp-Name for a non-ASCII target', async () => {
    const reply = await rawPost(service.url, request('tools/call', { name: 'grüße', arguments: {} }), {
      ...MODERN_HEADERS,
      'mcp-method': 'tools/call',
      'mcp-name': `=?base64?${Buffer.from('grüße').toString('base64')}?=`,
    });
    // The header agrees, so the request gets as far as the tool lookup.
    expect(reply.body.error).toMatchObject({ code: -32602, message: 'Unknown tool: grüße' });
  });

  it('rejects a request without _meta protocol version or capabilities with 400 and -32602', async () => {
    const headers = { ...MODERN_HEADERS, 'mcp-method': 'tools/list' };
    const noVersion = await rawPost(
      service.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
      },
      headers,
    );
    expect(noVersion.status).toBe(400);
    expect(noVersion.body).toMatchObject({
      id: 1,
      error: { code: -32602, data: { path: 'params._meta.io.modelcontextprotocol/protocolVersion' } },
    });
    const noCapabilities = await rawPost(
      service.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      },
      headers,
    );
    expect(noCapabilities.status).toBe(400);
    expect(noCapabilities.body).toMatchObject({ id: 2, error: { code: -32602 } });
  });

  it('rejects an unsupported version with 400, -32022 and the supported list', async () => {
    const body = request('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } });
    const reply = await rawPost(service.url, body, {
      'mcp-protocol-version': '1900-01-01',
      'mcp-method': 'tools/list',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28'], requested: '1900-01-01' },
    });
  });

  it.each(['ping', 'initialize', 'logging/setLevel', 'resources/subscribe', 'no/such/method'])(
    'answers %s with 404 and -32601',
    async (method) => {
      const reply = await rawCall(service.url, method, {});
      expect(reply.status).toBe(404);
      expect(reply.body.error?.code).toBe(-32601);
    },
  );

  it('answers malformed JSON with 400 and -32700', async () => {
    const reply = await rawPost(service.url, '{"jsonrpc": "2.0", "id": 1, "method":', {
      ...MODERN_HEADERS,
      'mcp-method': 'tools/list',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code).toBe(-32700);
  });

  it('refuses an envelope the SDK schema refuses with 400 and -32600 naming the field, echoing the id', async () => {
    const headers = { ...MODERN_HEADERS, 'mcp-method': 'tools/list' };
    const unknownField = await rawPost(
      service.url,
      { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: MODERN_META }, extra: 1 },
      headers,
    );
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.id).toBe(5);
    expect(unknownField.body.error).toMatchObject({ code: -32600, data: { path: 'extra' } });
    const wrongVersion = await rawPost(service.url, { jsonrpc: '1.0', id: 6, method: 'tools/list' }, headers);
    expect(wrongVersion.status).toBe(400);
    expect(wrongVersion.body.error).toMatchObject({ code: -32600, data: { path: 'jsonrpc' } });
  });

  it('refuses a foreign Origin with 403 and lets a loopback one through', async () => {
    const headers = { ...MODERN_HEADERS, 'mcp-method': 'tools/list' };
    const foreign = await rawPost(service.url, request('tools/list'), { ...headers, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const local = await rawPost(service.url, request('tools/list'), { ...headers, origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    const rebound = await rawPost(service.url, request('tools/list'), {
      ...headers,
      host: 'evil.example.com',
      origin: 'http://evil.example.com',
    });
    expect(rebound.status).toBe(403);
  });

  it('refuses a body over the configured limit with 413', async () => {
    const big = request('tools/call', { name: 'greet', arguments: { greeting: 'x'.repeat(8000) } });
    const reply = await rawPost(service.url, big, {
      ...MODERN_HEADERS,
      'mcp-method': 'tools/call',
      'mcp-name': 'greet',
    });
    expect(reply.status).toBe(413);
  });

  it('names the path of a mistyped field', async () => {
    const reply = await rawPost(service.url, request('tools/call', { name: 5 }), {
      ...MODERN_HEADERS,
      'mcp-method': 'tools/call',
      'mcp-name': '5',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: -32602, data: { path: 'params.name' } });
  });

  it('answers an unknown tool with -32602 before starting any exchange', async () => {
    const before = await service.pool.query('SELECT count(*)::int AS n FROM exchanges');
    const reply = await rawCall(service.url, 'tools/call', { name: 'nope', arguments: {} });
    expect(reply.body.error).toMatchObject({ code: -32602, message: 'Unknown tool: nope' });
    const after = await service.pool.query('SELECT count(*)::int AS n FROM exchanges');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});
