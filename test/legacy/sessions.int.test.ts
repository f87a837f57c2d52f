/**
 * Legacy sessions on one API replica: each version negotiated when asked for, an unknown one
 * answered with the latest, an unsupported MCP-Protocol-Version refused (400), an id never issued and
 * a deleted session answered with 404.
 */
import { LegacySession } from '../support/legacy-client';
import { useTestService } from '../support/test-service';

const HANDSHAKE_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

describe('legacy clients on one API replica', () => {
  const service = useTestService();

  describe('sessions', () => {
    it.each(HANDSHAKE_VERSIONS)('negotiates %s when the client asks for it', async (version) => {
      const session = await LegacySession.open(service.url, { protocolVersion: version });
      try {
        expect(session.protocolVersion).toBe(version);
        expect(session.initializeResult).toMatchObject({
          serverInfo: { name: 'durable-mcp' },
          capabilities: { tools: expect.any(Object) },
        });
        expect((await session.call('ping')).result).toEqual({});
      } finally {
        await session.close();
      }
    });

    it('answers an unknown version with the latest legacy version', async () => {
      const session = await LegacySession.open(service.url, { protocolVersion: '2099-01-01' });
      try {
        expect(session.protocolVersion).toBe('2025-11-25');
      } finally {
        await session.close();
      }
    });

    it('refuses a request whose MCP-Protocol-Version is not a supported revision with HTTP 400', async () => {
      const session = await LegacySession.open(service.url);
      try {
        const response = await session.post(
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { headers: { 'mcp-protocol-version': '1999-01-01' } },
        );
        await response.body?.cancel();
        expect(response.status).toBe(400);
      } finally {
        await session.close();
      }
    });

    it('answers HTTP 404 to a session id it never issued', async () => {
      const response = await fetch(service.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': 'no-such-session',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      await response.body?.cancel();
      expect(response.status).toBe(404);
    });

    it('ends a session on DELETE; later requests with its id get HTTP 404', async () => {
      const session = await LegacySession.open(service.url);
      try {
        expect((await session.call('ping')).result).toEqual({});
        const status = await session.terminate();
        expect(status >= 200 && status < 300).toBe(true);
        const after = await session.post({ jsonrpc: '2.0', id: 2, method: 'ping' });
        await after.body?.cancel();
        expect(after.status).toBe(404);
        const listening = await session.listen();
        expect(listening.status).toBe(404);
      } finally {
        await session.close();
      }
    });
  });
});
