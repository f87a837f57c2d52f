/**
 * Handshake-era clients (2024-11-05 … 2025-11-25) served by the same handlers, durably: each ask
 * goes out as the real server-to-client request it describes (elicitation/create,
 * sampling/createMessage, roots/list) on the originating call's stream, and the client's JSON-RPC
 * response, POSTed to any API replica, becomes a signal to the exchange's workflow.
 *
 * End to end with the official 1.x client (`@modelcontextprotocol/sdk`) over Streamable HTTP and the
 * 2024-11-05 HTTP+SSE transport; message by message with a bare client (support/legacy-client) for
 * what the official client cannot be made to do: answer on another replica, answer twice, never
 * answer, cancel, drop its stream and resume it, end its session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type Root,
} from '@modelcontextprotocol/sdk/types.js';
import { EXCHANGE_CANCELLED, EXCHANGE_EXPIRED } from '../../lib/protocol/exchange-errors';
import { MISSING_REQUIRED_CLIENT_CAPABILITY } from '../../lib/protocol/json-rpc-codes';
import {
  isNotification,
  isRequest,
  isResponseTo,
  LegacySession,
  type JsonRpcId,
  type JsonRpcMessage,
  type MessageStream,
} from '../support/legacy-client';
import { startApiProcess } from '../support/service-processes';
import { exchangeById, exchangeOfSession, exchangeStartedBy } from '../support/exchange-rows';
import { startTestService, TEST_KEY_RINGS, type TestService } from '../support/test-service';

const HANDSHAKE_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const CALL_TIMEOUT = { timeout: 30_000 };
const DEPLOY_ARGS = { service: 'checkout', version: '2.1.0', environment: 'production' };

// ---------------------------------------------------------------------------------------------
// The official 1.x client

type TransportKind = 'streamable-http' | 'sse';

interface Peers {
  elicit?: (params: ElicitRequest['params']) => ElicitResult;
  sample?: (params: CreateMessageRequestParams) => CreateMessageResult;
  roots?: Root[];
}
type CreateMessageRequestParams = { messages: unknown[]; maxTokens?: number };

/** What the client was asked: every server-to-client request it handled, and what it could not. */
interface Seen {
  elicit: Array<ElicitRequest['params']>;
  sample: CreateMessageRequestParams[];
  roots: number;
  /** Ids of the server-to-client requests the registered handlers answered. */
  requestIds: JsonRpcId[];
  /** Methods of server-to-client requests no handler was registered for. */
  unexpected: string[];
  logs: Array<{ level: string; data?: unknown }>;
  transportErrors: Error[];
}

async function connectOfficialClient(url: string, kind: TransportKind, peers: Peers) {
  const { elicit, sample, roots } = peers;
  const client = new Client(
    { name: 'durable-mcp-legacy-tests', version: '1.0.0' },
    {
      capabilities: {
        ...(elicit ? { elicitation: {} } : {}),
        ...(sample ? { sampling: {} } : {}),
        ...(roots ? { roots: {} } : {}),
      },
    },
  );
  const seen: Seen = {
    elicit: [],
    sample: [],
    roots: 0,
    requestIds: [],
    unexpected: [],
    logs: [],
    transportErrors: [],
  };
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      seen.requestIds.push(extra.requestId);
      seen.elicit.push(request.params);
      return elicit(request.params);
    });
  }
  if (sample) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      seen.requestIds.push(extra.requestId);
      const params = request.params as unknown as CreateMessageRequestParams;
      seen.sample.push(params);
      return sample(params);
    });
  }
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async (_request, extra) => {
      seen.requestIds.push(extra.requestId);
      seen.roots += 1;
      return { roots };
    });
  }
  client.fallbackRequestHandler = async (request) => {
    seen.unexpected.push(request.method);
    throw new McpError(-32601, `Method not found: ${request.method}`);
  };
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    seen.logs.push(notification.params);
  });
  const transport =
    kind === 'sse'
      ? new SSEClientTransport(new URL(url.replace(/\/mcp$/, '/sse')))
      : new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  // Set after connect: Protocol.connect installs its own transport.onerror, which forwards here.
  client.onerror = (error) => seen.transportErrors.push(error);
  return { client, transport, seen };
}

const assistant = (text: string): CreateMessageResult => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'test-model',
  stopReason: 'endTurn',
});

/** Capability names in `data.requiredCapabilities`, whether it is an object (as in the modern era) or a list. */
function requiredCapabilityNames(data: unknown): string[] {
  const required = (data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
  if (Array.isArray(required)) return required.map(String).sort();
  if (required && typeof required === 'object') return Object.keys(required).sort();
  return [];
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

// ---------------------------------------------------------------------------------------------
// The bare client and the database

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** Starts `greet` on a bare session and reads its stream up to the elicitation request. */
async function startGreet(session: LegacySession, url?: string) {
  const { id: callId, stream } = await session.request(
    'tools/call',
    { name: 'greet', arguments: {} },
    url ? { url } : {},
  );
  const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'elicitation/create request for greet');
  return { callId, stream, ask: ask.message, askId: ask.message.id as JsonRpcId, askEventId: ask.eventId };
}

function expectText(message: JsonRpcMessage, text: string): void {
  expect(message.error).toBeUndefined();
  expect(message.result).toMatchObject({ content: [{ type: 'text', text }] });
}

const cancellationsIn = (stream: MessageStream) =>
  stream.messages.filter((m) => isNotification(m.message, 'notifications/cancelled')).map((m) => m.message.params);

/** The exchange a raw handshake-era session started (each of these tests starts one per session). */
const exchangeOf = (service: TestService, session: LegacySession) => exchangeOfSession(service.pool, session.sessionId);

async function roundsOf(service: TestService, exchangeId: string) {
  const { rows } = await service.pool.query<{
    round: number;
    outcome_kind: string;
    answers: Record<string, unknown> | null;
    outcome: unknown;
  }>('SELECT round, outcome_kind, answers, outcome FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round', [
    exchangeId,
  ]);
  return rows;
}

/** Polls until `done` holds (returns the last value either way, for the assertion to show). */
async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await probe();
  }
  return value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------

describe('handshake-era clients on one API replica', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.close();
  });

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

  describe('asks the client never declared', () => {
    it('refuses deploy_service to a client with neither sampling nor roots: -32021, and nothing is sent', async () => {
      const { client, seen } = await connectOfficialClient(service.url, 'streamable-http', {
        elicit: () => ({ action: 'accept', content: { approve: true, ticket: 'never' } }),
      });
      try {
        const error = await rejectionOf(
          client.callTool({ name: 'deploy_service', arguments: DEPLOY_ARGS }, undefined, CALL_TIMEOUT),
        );
        // An McpError (a JSON-RPC error in a 200 reply), not a transport error from an HTTP 4xx.
        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).code).toBe(MISSING_REQUIRED_CLIENT_CAPABILITY);
        expect(requiredCapabilityNames((error as McpError).data)).toEqual(['roots', 'sampling']);
        expect(seen.elicit).toEqual([]);
        expect(seen.unexpected).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it('names only the missing capability when roots is declared but sampling is not', async () => {
      const { client, seen } = await connectOfficialClient(service.url, 'streamable-http', {
        roots: [{ uri: 'file:///src/checkout' }],
        elicit: () => ({ action: 'accept', content: { approve: true, ticket: 'never' } }),
      });
      try {
        const error = await rejectionOf(
          client.callTool({ name: 'deploy_service', arguments: DEPLOY_ARGS }, undefined, CALL_TIMEOUT),
        );
        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).code).toBe(MISSING_REQUIRED_CLIENT_CAPABILITY);
        expect(requiredCapabilityNames((error as McpError).data)).toEqual(['sampling']);
        expect([seen.roots, seen.elicit.length, seen.unexpected.length]).toEqual([0, 0, 0]);
      } finally {
        await client.close();
      }
    });

    it('answers the call with the error alone: no server-to-client request precedes it', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { id, stream } = await session.request('tools/call', { name: 'deploy_service', arguments: DEPLOY_ARGS });
        expect(stream.status).toBe(200);
        const messages = (await stream.drain()).map((m) => m.message);
        expect(messages.filter((m) => isRequest(m))).toEqual([]);
        const responses = messages.filter((m) => isResponseTo(m, id));
        expect(responses).toHaveLength(1);
        expect(responses[0]!.error).toMatchObject({ code: MISSING_REQUIRED_CLIENT_CAPABILITY });
        expect(requiredCapabilityNames(responses[0]!.error!.data)).toEqual(['roots', 'sampling']);
      } finally {
        await session.close();
      }
    });
  });

  describe('responses the exchange must not take', () => {
    it('drops a duplicate response, a different answer to an answered request and unknown ids (202, nothing changes)', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { callId, stream, askId } = await startGreet(session);
        expect(typeof askId).toBe('string');
        const answer = accept({ name: 'Lin' });
        expect(await session.respond(askId, answer)).toBe(202);
        expect(await session.respond(askId, answer)).toBe(202);
        expect(await session.respond(askId, accept({ name: 'Mallory' }))).toBe(202);
        expect(await session.respond(`${String(askId)}-unknown`, answer)).toBe(202);
        expect(await session.respond(987_654_321, answer)).toBe(202);
        expect(await session.respondError('never-issued', { code: -32601, message: 'Method not found' })).toBe(202);

        const final = await stream.until((m) => isResponseTo(m, callId), 'the result of greet');
        expectText(final.message, 'Hello, Lin!');
        // After the exchange ended, the same response once more.
        expect(await session.respond(askId, answer)).toBe(202);
        await stream.settle(1_000);
        expect(stream.messages.filter((m) => isResponseTo(m.message, callId))).toHaveLength(1);
        expect(stream.messages.filter((m) => isRequest(m.message))).toHaveLength(1);
      } finally {
        await session.close();
      }
      await sleep(1_000); // let a stray signal land, if one was sent
      const exchange = await exchangeOf(service, session);
      expect(exchange.status).toBe('completed');
      const rounds = await roundsOf(service, exchange.id);
      expect(rounds.map((r) => [r.round, r.outcome_kind])).toEqual([
        [1, 'ask'],
        [2, 'complete'],
      ]);
      expect(rounds[1]!.answers).toMatchObject({ name: { action: 'accept', content: { name: 'Lin' } } });
    });
  });

  describe('cancellation by the client', () => {
    it('withdraws the open elicitation with one notifications/cancelled and ends the originating call', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { callId, stream, askId } = await startGreet(session);
        expect(
          await session.notify('notifications/cancelled', { requestId: callId, reason: 'The user closed the dialog' }),
        ).toBe(202);

        await stream.until(
          (m) => isNotification(m, 'notifications/cancelled'),
          'notifications/cancelled for the elicitation',
        );
        await stream.settle(3_000);
        expect(cancellationsIn(stream)).toEqual([expect.objectContaining({ requestId: askId })]);
        // The originating request ends: with its error, or (as a cancelled request may) with no response at all.
        const responses = stream.messages.filter((m) => isResponseTo(m.message, callId)).map((m) => m.message);
        expect(responses.length <= 1).toBe(true);
        if (responses[0]) expect(responses[0].error).toMatchObject({ code: EXCHANGE_CANCELLED });
        else expect(stream.ended).toBe(true);

        const exchange = await eventually(
          () => exchangeOf(service, session),
          (e) => e.status === 'cancelled',
        );
        expect(exchange.status).toBe('cancelled');
        // An answer to the withdrawn request changes nothing.
        expect(await session.respond(askId, accept({ name: 'Too late' }))).toBe(202);
        await sleep(1_000);
        expect((await exchangeOf(service, session)).status).toBe('cancelled');
        expect((await roundsOf(service, exchange.id)).map((r) => r.outcome_kind)).not.toContain('complete');
      } finally {
        await session.close();
      }
    });
  });

  describe('reconnects', () => {
    it('resumes a dropped call stream from the last event id it saw: the result follows on the resumed stream', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { callId, stream, askId, askEventId } = await startGreet(session);
        expect(askEventId).toEqual(expect.any(String)); // SSE events carry ids
        stream.close(); // what the 1.x client does next: GET with Last-Event-ID = the last id it saw
        await sleep(300);

        const resumed = await session.listen({ lastEventId: askEventId });
        expect(resumed.status).toBe(200);
        expect(resumed.isSse).toBe(true);
        expect(await session.respond(askId, accept({ name: 'Joan' }))).toBe(202);
        const final = await resumed.until((m) => isResponseTo(m, callId), 'the result of greet on the resumed stream');
        expectText(final.message, 'Hello, Joan!');
      } finally {
        await session.close();
      }
    });

    it('replays what followed Last-Event-ID, then carries the next rounds and the result on the resumed stream', async () => {
      const session = await LegacySession.open(service.url, {
        capabilities: { elicitation: {}, sampling: {}, roots: {} },
      });
      try {
        const { id: callId, stream } = await session.request('tools/call', {
          name: 'deploy_service',
          arguments: DEPLOY_ARGS,
        });
        // Round 1 asks for roots and a summary together: two server-to-client requests, two events.
        await stream.until((m) => isRequest(m, 'roots/list'), 'roots/list request');
        await stream.until((m) => isRequest(m, 'sampling/createMessage'), 'sampling/createMessage request');
        const round1 = stream.messages.filter((m) => isRequest(m.message));
        expect(round1).toHaveLength(2);
        expect(round1.map((m) => m.eventId)).toEqual([expect.any(String), expect.any(String)]);
        const [first, second] = round1 as [(typeof round1)[0], (typeof round1)[0]];
        stream.close();
        await sleep(300);

        // Resume as if only the first event had arrived: the second must be replayed, same id and all.
        const resumed = await session.listen({ lastEventId: first.eventId! });
        expect(resumed.status).toBe(200);
        const replayed = await resumed.until(
          (m) => m.id === second.message.id,
          `replay of the ${second.message.method} request`,
        );
        expect(replayed.message).toEqual(second.message);

        const rootsRequest = round1.find((m) => m.message.method === 'roots/list')!.message;
        const sampleRequest = round1.find((m) => m.message.method === 'sampling/createMessage')!.message;
        expect(await session.respond(rootsRequest.id!, { roots: [{ uri: 'file:///src/checkout' }] })).toBe(202);
        expect(await session.respond(sampleRequest.id!, assistant('Adds retries.'))).toBe(202);

        const approval = await resumed.until(
          (m) => isRequest(m, 'elicitation/create'),
          'the round-2 elicitation on the resumed stream',
        );
        expect(approval.message.params).toMatchObject({ message: expect.stringContaining('Adds retries.') });
        expect(await session.respond(approval.message.id!, accept({ approve: true, ticket: 'CHG-10' }))).toBe(202);
        const final = await resumed.until(
          (m) => isResponseTo(m, callId),
          'the result of deploy_service on the resumed stream',
        );
        expectText(final.message, 'Approved: checkout@2.1.0 to production (ticket CHG-10).');
      } finally {
        await session.close();
      }
    });

    it('re-delivers a still-open request on a new GET stream; answering it completes the exchange', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { stream, askId, ask } = await startGreet(session);
        stream.close();
        await sleep(300);

        const listening = await session.listen();
        expect(listening.status).toBe(200);
        const redelivered = await listening.until(
          (m) => isRequest(m, 'elicitation/create'),
          'the re-delivered elicitation request',
        );
        expect(redelivered.message).toEqual(ask);

        expect(await session.respond(askId, accept({ name: 'Kai' }))).toBe(202);
        const exchange = await eventually(
          () => exchangeOf(service, session),
          (e) => e.status === 'completed',
        );
        expect(exchange.status).toBe('completed');
        const rounds = await roundsOf(service, exchange.id);
        expect(rounds.map((r) => [r.round, r.outcome_kind])).toEqual([
          [1, 'ask'],
          [2, 'complete'],
        ]);
        expect(JSON.stringify(rounds[1]!.outcome)).toContain('Hello, Kai!');
      } finally {
        await session.close();
      }
    });
  });

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

    it('answers an unknown version with the latest handshake-era version', async () => {
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

describe('handshake-era clients across two API replicas', () => {
  let replicaA: TestService;
  let replicaB: TestService;
  beforeAll(async () => {
    replicaA = await startTestService();
    replicaB = await startTestService({ TEMPORAL_TASK_QUEUE: replicaA.config.temporal.taskQueue });
    await replicaB.stopWorker(); // one worker (A's) serves the shared queue
  });
  afterAll(async () => {
    await replicaB?.close();
    await replicaA?.close();
  });

  it('serves a session created on replica A from replica B', async () => {
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      expect((await session.call('ping', {}, { url: replicaB.url })).result).toEqual({});
    } finally {
      await session.close();
    }
  });

  it('completes the call whose stream A holds with a response POSTed to B', async () => {
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId } = await startGreet(session);
      expect(typeof askId).toBe('string');
      expect(askId).not.toBe(callId);
      expect(await session.respond(askId, accept({ name: 'Grace' }), { url: replicaB.url })).toBe(202);
      const final = await stream.until((m) => isResponseTo(m, callId), 'the result of greet on replica A');
      expectText(final.message, 'Hello, Grace!');
      // A handshake-era client never sees the modern era's retry artifacts.
      expect(final.message.result).not.toHaveProperty('requestState');
      expect(final.message.result).not.toHaveProperty('inputRequests');
    } finally {
      await session.close();
    }
  });

  it('resumes on replica B, from Last-Event-ID, a call stream dropped on replica A', async () => {
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId, askEventId } = await startGreet(session);
      expect(askEventId).toEqual(expect.any(String));
      stream.close();
      await sleep(300);
      const resumed = await session.listen({ url: replicaB.url, lastEventId: askEventId });
      expect(resumed.status).toBe(200);
      expect(await session.respond(askId, accept({ name: 'Hopper' }), { url: replicaB.url })).toBe(202);
      const final = await resumed.until((m) => isResponseTo(m, callId), 'the result of greet on replica B');
      expectText(final.message, 'Hello, Hopper!');
    } finally {
      await session.close();
    }
  });
  it('lets the client finish after the API holding its stream stopped and a new API process started', async () => {
    const queue = replicaA.config.temporal.taskQueue;
    const doomed = await startTestService({ TEMPORAL_TASK_QUEUE: queue });
    await doomed.stopWorker(); // replica A's worker keeps running the exchange
    const session = await LegacySession.open(doomed.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId, askEventId } = await startGreet(session);
      stream.close();
      await doomed.close(); // the API process that held the stream is gone
      const restarted = await startTestService({ TEMPORAL_TASK_QUEUE: queue });
      try {
        await restarted.stopWorker();
        const resumed = await session.listen({ url: restarted.url, lastEventId: askEventId });
        expect(resumed.status).toBe(200);
        expect(await session.respond(askId, accept({ name: 'Turing' }), { url: restarted.url })).toBe(202);
        const final = await resumed.until((m) => isResponseTo(m, callId), 'the result of greet after the restart');
        expectText(final.message, 'Hello, Turing!');
      } finally {
        await restarted.close();
      }
    } finally {
      await session.close().catch(() => undefined);
    }
  });
  it('takes a JSON-RPC error answer as an answer: recorded raw, and the handler decides', async () => {
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId } = await startGreet(session);
      const error = { code: -32601, message: 'Method not found' };
      expect(await session.respondError(askId, error, { url: replicaB.url })).toBe(202);
      const final = await stream.until((m) => isResponseTo(m, callId), 'the result after an error answer');
      expectText(final.message, 'Hello, whoever you are.');
      const rounds = await roundsOf(replicaA, (await exchangeOf(replicaA, session)).id);
      expect(rounds[1]!.answers).toEqual({ name: { error } });
    } finally {
      await session.close();
    }
  });
  it('completes the call whose stream A holds with a response POSTed to a separate API process', async () => {
    const other = await startApiProcess({
      DATABASE_URL: replicaA.config.database.url,
      TEMPORAL_ADDRESS: replicaA.config.temporal.address,
      TEMPORAL_TASK_QUEUE: replicaA.config.temporal.taskQueue,
      ...TEST_KEY_RINGS,
    });
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId } = await startGreet(session);
      expect(await session.respond(askId, accept({ name: 'Hamilton' }), { url: other.url })).toBe(202);
      const final = await stream.until((m) => isResponseTo(m, callId), 'the result of greet on replica A');
      expectText(final.message, 'Hello, Hamilton!');
    } finally {
      await session.close();
      await other.kill();
    }
  });

  it('finishes a call after the API process holding its stream is killed and another is started', async () => {
    const env = {
      DATABASE_URL: replicaA.config.database.url,
      TEMPORAL_ADDRESS: replicaA.config.temporal.address,
      TEMPORAL_TASK_QUEUE: replicaA.config.temporal.taskQueue,
      ...TEST_KEY_RINGS,
    };
    const doomed = await startApiProcess(env);
    const session = await LegacySession.open(doomed.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId, askEventId } = await startGreet(session);
      await doomed.kill('SIGKILL'); // no goodbye: the process and its stream are simply gone
      stream.close();
      const restarted = await startApiProcess(env);
      try {
        const resumed = await session.listen({ url: restarted.url, lastEventId: askEventId });
        expect(resumed.status).toBe(200);
        expect(await session.respond(askId, accept({ name: 'Lovelace' }), { url: restarted.url })).toBe(202);
        const final = await resumed.until((m) => isResponseTo(m, callId), 'the result from the restarted process');
        expectText(final.message, 'Hello, Lovelace!');
      } finally {
        await restarted.kill();
      }
    } finally {
      await session.close().catch(() => undefined);
    }
  });
});

describe('handshake-era round timeout', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ ROUND_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('withdraws the unanswered request with one notifications/cancelled, then fails the call with -32001', async () => {
    const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId } = await startGreet(session);
      const asked = Date.now();
      const end = await stream.until((m) => isResponseTo(m, callId), 'the error of the expired call', 8_000);
      expect(Date.now() - asked).toBeLessThan(6_000);
      expect(end.message.error).toMatchObject({ code: EXCHANGE_EXPIRED, data: { round: 1, roundTimeoutMs: 2000 } });
      await stream.settle(1_000);
      expect(cancellationsIn(stream)).toEqual([expect.objectContaining({ requestId: askId })]);
      const cancelAt = stream.messages.findIndex((m) => isNotification(m.message, 'notifications/cancelled'));
      expect(cancelAt).toBeLessThan(stream.messages.indexOf(end));

      // A late answer is dropped.
      expect(await session.respond(askId, accept({ name: 'Late' }))).toBe(202);
      await sleep(1_000);
      const exchange = await exchangeOf(service, session);
      expect(exchange.status).toBe('expired');
      expect((await roundsOf(service, exchange.id)).map((r) => r.outcome_kind)).not.toContain('complete');
    } finally {
      await session.close();
    }
  });
});
