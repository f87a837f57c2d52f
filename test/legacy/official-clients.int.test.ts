/**
 * Legacy clients (2024-11-05 … 2025-11-25) end to end with the official 1.x client
 * (`@modelcontextprotocol/sdk`), on one API replica: over Streamable HTTP (a session at 2025-11-25,
 * lists, ping and log level; greet and deploy_service with every kind of server-to-client request; a
 * decline; progress and logs; a prompt and a resource) and over the 2024-11-05 HTTP+SSE transport.
 * Each ask goes out as the real request it describes, and the client's response becomes a signal.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exchangeById, exchangeStartedBy } from '../support/exchange-rows';
import { useTestService } from '../support/test-service';
import { CALL_TIMEOUT, DEPLOY_ARGS, assistant, connectOfficialClient } from './official-client';
import { roundsOf } from './bare-session';

describe('legacy clients on one API replica', () => {
  const service = useTestService();

  describe('the official 1.x client over Streamable HTTP', () => {
    it('initializes a session at 2025-11-25, then lists tools, pings and sets the log level', async () => {
      const { client, transport } = await connectOfficialClient(service.url, 'streamable-http', {
        elicit: () => ({ action: 'decline' }),
      });
      try {
        const streamable = transport as StreamableHTTPClientTransport;
        expect(streamable.sessionId).toEqual(expect.any(String));
        expect(streamable.protocolVersion).toBe('2025-11-25');
        expect(client.getServerVersion()).toMatchObject({ name: 'durable-mcp' });
        expect(client.getServerCapabilities()).toMatchObject({
          tools: expect.any(Object),
          logging: expect.any(Object),
        });
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(
          expect.arrayContaining(['greet', 'deploy_service', 'onboarding_wizard', 'guess_number']),
        );
        await expect(client.ping()).resolves.toEqual({});
        await expect(client.setLoggingLevel('info')).resolves.toEqual({});
      } finally {
        await client.close();
      }
    });

    it('completes greet: the ask goes out as a real elicitation/create request with a string id', async () => {
      const { client, seen } = await connectOfficialClient(service.url, 'streamable-http', {
        elicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
      });
      let exchange: { id: string };
      try {
        exchange = await exchangeStartedBy(service.pool, 'greet', async () => {
          const result = await client.callTool({ name: 'greet', arguments: {} }, undefined, CALL_TIMEOUT);
          expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
        });
        expect(seen.elicit).toHaveLength(1);
        expect(seen.elicit[0]).toMatchObject({
          message: 'What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
        expect(seen.requestIds).toEqual([expect.any(String)]);
        expect(seen.unexpected).toEqual([]);
      } finally {
        await client.close();
      }
      expect((await roundsOf(service, exchange.id)).map((r) => [r.round, r.outcome_kind])).toEqual([
        [1, 'ask'],
        [2, 'complete'],
      ]);
    });

    it('completes deploy_service in three rounds with roots, sampling and elicitation handlers', async () => {
      const { client, seen } = await connectOfficialClient(service.url, 'streamable-http', {
        roots: [{ uri: 'file:///src/checkout', name: 'checkout' }],
        sample: () => assistant('Adds retries to payment capture.'),
        elicit: () => ({ action: 'accept', content: { approve: true, ticket: 'CHG-7' } }),
      });
      let started: { id: string };
      try {
        started = await exchangeStartedBy(service.pool, 'deploy_service', async () => {
          const result = await client.callTool(
            { name: 'deploy_service', arguments: DEPLOY_ARGS },
            undefined,
            CALL_TIMEOUT,
          );
          expect(result.content).toEqual([
            { type: 'text', text: 'Approved: checkout@2.1.0 to production (ticket CHG-7).' },
          ]);
        });
        expect(seen.roots).toBe(1);
        expect(seen.sample).toHaveLength(1);
        expect(seen.sample[0]).toMatchObject({ maxTokens: 200 });
        expect(seen.elicit).toHaveLength(1);
        expect(seen.elicit[0]!.message).toContain('Adds retries to payment capture.');
        expect(seen.elicit[0]!.message).toContain('the client has checkout open (file:///src/checkout)');
        // Three server-to-client requests, each with its own string id.
        expect(seen.requestIds).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
        expect(new Set(seen.requestIds).size).toBe(3);
        expect(seen.unexpected).toEqual([]);
      } finally {
        await client.close();
      }
      const exchange = await exchangeById(service.pool, started.id);
      expect(exchange.status).toBe('completed');
      const rounds = await roundsOf(service, exchange.id);
      expect(rounds.map((r) => [r.round, r.outcome_kind])).toEqual([
        [1, 'ask'],
        [2, 'ask'],
        [3, 'complete'],
      ]);
      // Answers are carried as the raw results, keyed as the handler asked.
      expect(rounds[1]!.answers).toMatchObject({
        roots: { roots: [{ uri: 'file:///src/checkout' }] },
        summary: { role: 'assistant' },
      });
      expect(rounds[2]!.answers).toMatchObject({
        approval: { action: 'accept', content: { approve: true, ticket: 'CHG-7' } },
      });
    });

    it('ends deploy_service on a decline', async () => {
      const { client, seen } = await connectOfficialClient(service.url, 'streamable-http', {
        roots: [],
        sample: () => assistant('Small fix.'),
        elicit: () => ({ action: 'decline' }),
      });
      try {
        const result = await client.callTool(
          { name: 'deploy_service', arguments: { service: 'search', version: '1.0.1', environment: 'staging' } },
          undefined,
          CALL_TIMEOUT,
        );
        expect(result.content).toEqual([
          { type: 'text', text: 'Not approved: search@1.0.1 to staging will not be deployed.' },
        ]);
        expect(seen.elicit).toHaveLength(1);
      } finally {
        await client.close();
      }
    });

    it('forwards the rollout progress, and the approval log at the level the client set', async () => {
      const { client, seen } = await connectOfficialClient(service.url, 'streamable-http', {
        roots: [{ uri: 'file:///src/checkout' }],
        sample: () => assistant('Adds retries.'),
        elicit: () => ({ action: 'accept', content: { approve: true, ticket: 'CHG-8' } }),
      });
      try {
        await client.setLoggingLevel('info');
        const progress: Array<{ progress: number; total?: number; message?: string }> = [];
        const result = await client.callTool({ name: 'deploy_service', arguments: DEPLOY_ARGS }, undefined, {
          ...CALL_TIMEOUT,
          onprogress: (p) => progress.push(p),
        });
        expect(result.content).toEqual([
          { type: 'text', text: 'Approved: checkout@2.1.0 to production (ticket CHG-8).' },
        ]);
        const rollout = progress.filter((p) => p.message?.startsWith('Roll'));
        expect(rollout.map((p) => p.progress)).toEqual([0, 1, 2, 3]);
        expect(rollout.at(-1)).toMatchObject({ total: 3, message: 'Rolled out checkout@2.1.0 to production' });
        expect(seen.logs).toContainEqual(
          expect.objectContaining({
            level: 'notice',
            data: expect.objectContaining({ event: 'deployment-approved', ticket: 'CHG-8' }),
          }),
        );
      } finally {
        await client.close();
      }
    });

    it('serves a prompt that asks first, and a resource', async () => {
      const { client, seen } = await connectOfficialClient(service.url, 'streamable-http', {
        elicit: () => ({ action: 'accept', content: { severity: 'sev2' } }),
      });
      try {
        const prompt = await client.getPrompt(
          { name: 'incident_brief', arguments: { service: 'search' } },
          CALL_TIMEOUT,
        );
        expect(prompt.messages[0]!.content).toMatchObject({
          type: 'text',
          text: expect.stringContaining('sev2 incident brief for search'),
        });
        expect(seen.elicit).toEqual([expect.objectContaining({ message: 'How severe is the search incident?' })]);
        const resource = await client.readResource({ uri: 'runbooks://checkout' }, CALL_TIMEOUT);
        expect(resource.contents[0]).toMatchObject({ uri: 'runbooks://checkout', mimeType: 'text/markdown' });
      } finally {
        await client.close();
      }
    });
  });

  describe('the official 1.x client over the 2024-11-05 HTTP+SSE transport', () => {
    it('completes greet', async () => {
      const { client, seen } = await connectOfficialClient(service.url, 'sse', {
        elicit: () => ({ action: 'accept', content: { name: 'Barbara' } }),
      });
      try {
        await expect(client.ping()).resolves.toEqual({});
        const result = await client.callTool(
          { name: 'greet', arguments: { greeting: 'Welcome' } },
          undefined,
          CALL_TIMEOUT,
        );
        expect(result.content).toEqual([{ type: 'text', text: 'Welcome, Barbara!' }]);
        expect(seen.elicit).toHaveLength(1);
        expect(seen.requestIds).toEqual([expect.any(String)]);
      } finally {
        await client.close();
      }
    });

    it('completes deploy_service in three rounds', async () => {
      const { client, seen } = await connectOfficialClient(service.url, 'sse', {
        roots: [{ uri: 'file:///src/checkout', name: 'checkout' }],
        sample: () => assistant('Adds retries to payment capture.'),
        elicit: () => ({ action: 'accept', content: { approve: true, ticket: 'CHG-9' } }),
      });
      try {
        const result = await client.callTool(
          { name: 'deploy_service', arguments: DEPLOY_ARGS },
          undefined,
          CALL_TIMEOUT,
        );
        expect(result.content).toEqual([
          { type: 'text', text: 'Approved: checkout@2.1.0 to production (ticket CHG-9).' },
        ]);
        expect([seen.roots, seen.sample.length, seen.elicit.length]).toEqual([1, 1, 1]);
        expect(seen.unexpected).toEqual([]);
      } finally {
        await client.close();
      }
    });
  });
});
