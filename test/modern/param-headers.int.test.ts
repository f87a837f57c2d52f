/**
 * SEP-2243 `Mcp-Param-*` headers end to end: the official 2026-07-28 client mirrors a tool's
 * `x-mcp-header` parameters (Base64 where they are not plain ASCII) and the call goes through;
 * a header that disagrees with the body is refused with 400 / -32020 naming the header and the
 * field, before any exchange starts.
 */
import type { Client } from '@modelcontextprotocol/client';
import { connectModernClient } from '../support/modern-client';
import { MODERN_HEADERS, MODERN_META, rawPost } from '../support/raw-mcp';
import { startTestService, type TestService } from '../support/test-service';

const TOOL = 'test_custom_header_params';

describe('Mcp-Param-* headers', () => {
  let service: TestService;
  let client: Client;
  beforeAll(async () => {
    service = await startTestService({ HANDLER_SET: 'conformance' });
    client = await connectModernClient(service.url, {});
  });
  afterAll(async () => {
    await client?.close();
    await service?.close();
  });

  const exchangesOfTool = async () =>
    Number((await service.pool.query('SELECT count(*) FROM exchanges WHERE target = $1', [TOOL])).rows[0].count);

  it("takes the official client's mirrored headers, Base64 included", async () => {
    await client.listTools(); // the client mirrors from the schemas it has seen
    const args = { region: ' Hello, 世界 ', priority: 3, verbose: true, query: 'not mirrored' };
    const result = await client.callTool({ name: TOOL, arguments: args });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(args);
  });

  it('refuses a header that disagrees with the body before anything starts', async () => {
    const before = await exchangesOfTool();
    const reply = await rawPost(
      service.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: TOOL, arguments: { region: 'eu-west1', priority: 3 }, _meta: MODERN_META },
      },
      {
        ...MODERN_HEADERS,
        'mcp-method': 'tools/call',
        'mcp-name': TOOL,
        'mcp-param-region': 'us-east1',
        'mcp-param-priority': '3',
      },
    );
    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual({
      code: -32020,
      message:
        "Header mismatch: Mcp-Param-Region header value 'us-east1' does not match params.arguments.region value 'eu-west1'",
      data: { header: 'Mcp-Param-Region', path: 'params.arguments.region' },
    });
    expect(await exchangesOfTool()).toBe(before);
  });
});
