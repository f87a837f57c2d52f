/**
 * Error messages echo at most 128 characters of a client's string, on Streamable HTTP, on the
 * 2024-11-05 stream (and so in what is stored) and on the modern endpoint.
 */
import { isResponseTo, LegacySession, openSseSession } from '../support/legacy-client';
import { rawPost } from '../support/raw-mcp';
import { useTestService } from '../support/test-service';
import { BUDGETS } from './budgets-support';

describe('legacy budgets', () => {
  const service = useTestService(BUDGETS);

  describe('error messages echo at most 128 characters of a client string', () => {
    const longMethod = `x/${'m'.repeat(750_000)}`;

    it('on Streamable HTTP and on the 2024-11-05 stream (and so in what is stored)', async () => {
      const session = await LegacySession.open(service.url);
      try {
        const reply = await session.call(longMethod);
        expect(reply.error?.code).toBe(-32601);
        expect(reply.error!.message.length).toBeLessThan(200);
        expect(reply.error!.message).toMatch(/^Method not found: x\/m+…$/);
      } finally {
        await session.close();
      }
      const sse = await openSseSession(service.url);
      try {
        await sse.post({ jsonrpc: '2.0', id: 'long', method: longMethod });
        const reply = await sse.stream.until((m) => isResponseTo(m, 'long'), 'the error for the unknown method');
        expect(reply.message.error!.message.length).toBeLessThan(200);
        const { rows } = await service.pool.query<{ size: number }>(
          `SELECT octet_length(message::text) AS size FROM legacy_stream_events WHERE stream_id = $1 AND message_key = 'response:"long"'`,
          [`sse:${sse.sessionId}`],
        );
        expect(rows[0]!.size).toBeLessThan(400);
      } finally {
        sse.close();
      }
    });

    it('on the modern endpoint', async () => {
      const method = `x/${'m'.repeat(5_000)}`;
      const reply = await rawPost(
        service.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method,
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
      );
      expect(reply.body.error?.code).toBe(-32601);
      expect(reply.body.error!.message).toMatch(/^Method not found: x\/m+…$/);
      expect(reply.body.error!.message.length).toBeLessThan(200);
    });
  });
});
