/**
 * The gateway forwards an upstream's prompts and resources: the official TypeScript SDK 2.x server
 * (test/support/sdk-offers-upstream.ts), declared by UPSTREAM_URL with a prefix, beside a local set
 * that holds a prompt name and a resource URI the upstream lists too. Both eras' official clients
 * (2.x pinned to 2026-07-28, 1.x in a 2025-11-25 session) are listed the upstream's prompts
 * (prefixed), resources and templates (their own URIs) beside the local ones, the local holder
 * winning a clash; a `prompts/get` or `resources/read` of the upstream's is an exchange whose rounds
 * call the upstream, its ask reaching a 2026-07-28 client as an ask and a 2025-11-25 client as a real
 * `elicitation/create`, each round with its own idempotency key and the upstream's state given back.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HandlerSet } from '@durable-mcp/handlers';
import { connectModernClient } from '../support/modern-client';
import { startOffersUpstream, type OffersUpstream } from '../support/sdk-offers-upstream';
import { useTestService } from '../support/test-service';
import { exchangeStatus } from '../support/exchange-rows';
import { until } from '../support/until';

const local: HandlerSet = {
  name: 'local-notes',
  tools: [],
  prompts: [
    {
      prompt: { name: 'notes_review', description: 'The local review.' },
      run: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'the local review' } }] }),
    },
  ],
  resources: [
    {
      resource: { uri: 'notes://shared', name: 'local shared' },
      read: (uri) => ({ contents: [{ uri, text: 'the local copy' }] }),
    },
  ],
};

let upstream: OffersUpstream;
const env: Record<string, string> = { UPSTREAM_NAME: 'notes', UPSTREAM_TOOL_PREFIX: 'notes_' };
beforeAll(async () => {
  upstream = await startOffersUpstream();
  env.UPSTREAM_URL = upstream.url;
});
afterAll(() => upstream?.close());
const service = useTestService(env, { handlers: local });

type Messages = { messages: Array<{ content: { type: string; text?: string } }> };
type Contents = { contents: Array<{ uri: string; text?: string }> };
const said = (result: unknown) => (result as Messages).messages[0]?.content.text;
const read = (result: unknown) => (result as Contents).contents[0]?.text;
const codeOf = (error: unknown) => (error as { code?: number }).code;

function legacyClient(answer?: Record<string, unknown>): LegacyClient {
  const client = new LegacyClient(
    { name: 'desk', version: '1.0.0' },
    { capabilities: answer ? { elicitation: {} } : {} },
  );
  if (answer) client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: answer }));
  return client;
}

describe('upstream prompts and resources through the gateway', () => {
  it('lists them beside the local ones in both eras, prompts prefixed, URIs as they are, local holders first', async () => {
    const modern = await connectModernClient(service.url, {});
    const legacy = legacyClient();
    await legacy.connect(new LegacyTransport(new URL(service.url)));
    for (const client of [modern, legacy] as Array<
      Pick<LegacyClient, 'listPrompts' | 'listResources' | 'listResourceTemplates'>
    >) {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual(['notes_review', 'notes_survey']);
      expect(prompts.find((p) => p.name === 'notes_review')?.description).toBe('The local review.');
      const { resources } = await client.listResources();
      expect(resources.map((r) => [r.uri, r.name])).toEqual([
        ['notes://shared', 'local shared'],
        ['notes://readme', 'readme'],
      ]);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['notes://items/{id}']);
    }
    expect(modern.getServerCapabilities()?.prompts).toEqual({ listChanged: true });
    expect(legacy.getServerCapabilities()?.resources).toEqual({ listChanged: true, subscribe: true });
    await legacy.close();
    await modern.close();
  });

  it('serves a clashing name or URI from the local handler, never the upstream', async () => {
    const client = await connectModernClient(service.url, {});
    expect(said(await client.getPrompt({ name: 'notes_review', arguments: { topic: 'x' } }))).toBe('the local review');
    expect(read(await client.readResource({ uri: 'notes://shared' }))).toBe('the local copy');
    expect(upstream.received.filter((r) => r.params.name === 'review' || r.params.uri === 'notes://shared')).toEqual(
      [],
    );
    await client.close();
  });

  it('carries an upstream prompt ask to a 2026-07-28 client and back, a key per round, the state given back', async () => {
    const client = await connectModernClient(service.url, async () => ({
      action: 'accept',
      content: { mood: 'calm' },
    }));
    const result = await client.getPrompt({ name: 'notes_survey' });
    expect(said(result)).toBe('The user feels calm (survey:1).');
    const [first, second] = upstream.received.filter((r) => r.params.name === 'survey');
    const key = first!.params._meta?.idempotencyKey as string;
    expect(key).toMatch(/^[0-9a-f-]{36}\/1$/);
    expect(second!.params._meta?.idempotencyKey).toBe(key.replace(/\/1$/, '/2'));
    expect(second!.params.requestState).toBe('survey:1');
    expect(second!.params.inputResponses).toEqual({ mood: { action: 'accept', content: { mood: 'calm' } } });
    expect(await exchangeStatus(service.pool, key.split('/')[0]!)).toBe('completed');
    await client.close();
  });

  it("sends an upstream prompt's ask to a 2025-11-25 client as a real elicitation/create", async () => {
    const client = legacyClient({ mood: 'curious' });
    await client.connect(new LegacyTransport(new URL(service.url)));
    expect(said(await client.getPrompt({ name: 'notes_survey' }))).toBe('The user feels curious (survey:1).');
    await client.close();
  });

  it('reads an upstream resource and a template match in both eras, and carries a read that asks', async () => {
    const modern = await connectModernClient(service.url, async () => ({
      action: 'accept',
      content: { code: '1234' },
    }));
    expect(read(await modern.readResource({ uri: 'notes://readme' }))).toBe('Read me first.');
    expect(read(await modern.readResource({ uri: 'notes://items/42' }))).toBe('item 42');
    expect(read(await modern.readResource({ uri: 'notes://items/locked' }))).toBe('unlocked with 1234');
    const reads = upstream.received.filter((r) => r.params.uri === 'notes://items/locked');
    expect(reads.map((r) => r.params._meta?.idempotencyKey)).toEqual([
      expect.stringMatching(/\/1$/),
      expect.stringMatching(/\/2$/),
    ]);
    await modern.close();

    const legacy = legacyClient({ code: '999' });
    await legacy.connect(new LegacyTransport(new URL(service.url)));
    expect(read(await legacy.readResource({ uri: 'notes://readme' }))).toBe('Read me first.');
    expect(read(await legacy.readResource({ uri: 'notes://items/7' }))).toBe('item 7');
    expect(read(await legacy.readResource({ uri: 'notes://items/locked' }))).toBe('unlocked with 999');
    await legacy.close();
  });

  it('refuses a URI nobody lists, and a prompt nobody lists, with -32602 in both eras, without calling the upstream', async () => {
    const before = upstream.received.length;
    const modern = await connectModernClient(service.url, {});
    const unknownUri = await modern.readResource({ uri: 'other://nowhere' }).catch((error: unknown) => error);
    expect(codeOf(unknownUri)).toBe(-32602);
    expect((unknownUri as Error).message).toContain('Resource not found: other://nowhere');
    expect(codeOf(await modern.getPrompt({ name: 'notes_nothing' }).catch((error: unknown) => error))).toBe(-32602);
    await modern.close();
    const legacy = legacyClient();
    await legacy.connect(new LegacyTransport(new URL(service.url)));
    expect(codeOf(await legacy.readResource({ uri: 'other://nowhere' }).catch((error: unknown) => error))).toBe(-32602);
    await legacy.close();
    expect(upstream.received.length).toBe(before);
  });

  it("tells both eras' clients when the upstream's prompts change, and lists the new one", async () => {
    const modern = await connectModernClient(service.url, {});
    const modernNotes: unknown[] = [];
    modern.setNotificationHandler('notifications/prompts/list_changed', (note) => void modernNotes.push(note));
    const subscription = await modern.listen({ promptsListChanged: true, resourcesListChanged: true });
    expect(subscription.honoredFilter).toEqual({ promptsListChanged: true, resourcesListChanged: true });
    const legacy = legacyClient();
    const legacyNotes: unknown[] = [];
    legacy.setNotificationHandler(PromptListChangedNotificationSchema, (note) => void legacyNotes.push(note));
    await legacy.connect(new LegacyTransport(new URL(service.url)));
    // The session's GET stream opens after the handshake; give it a moment to be held.
    await new Promise((resolve) => setTimeout(resolve, 500));

    upstream.addPrompt('greet');
    await until(
      'both clients told',
      async () => (modernNotes.length > 0 && legacyNotes.length > 0) || undefined,
      10_000,
    );
    expect((await modern.listPrompts()).prompts.map((p) => p.name)).toContain('notes_greet');
    expect(said(await legacy.getPrompt({ name: 'notes_greet' }))).toBe('hello from greet');
    await subscription.close();
    await legacy.close();
    await modern.close();
  }, 30_000);

  // Last: it stops the upstream.
  it('ends a get the upstream cannot answer with -32603 naming the upstream, in both eras', async () => {
    await upstream.close();
    const reason = 'The upstream server notes could not be reached for prompt survey';
    // A 2026-07-28 error -32603 is answered with HTTP 500, which the 2.x client throws as such.
    const modern = await connectModernClient(service.url, {});
    const failed = await modern.getPrompt({ name: 'notes_survey' }).catch((error: unknown) => error);
    const { status, text } = (failed as { data: { status: number; text: string } }).data;
    expect(status).toBe(500);
    expect(JSON.parse(text).error).toEqual({ code: -32603, message: expect.stringContaining(reason) });
    await modern.close();
    const legacy = legacyClient();
    await legacy.connect(new LegacyTransport(new URL(service.url)));
    const refused = await legacy.getPrompt({ name: 'notes_survey' }).catch((error: unknown) => error);
    expect(codeOf(refused)).toBe(-32603);
    expect((refused as Error).message).toContain(reason);
    await legacy.close();
  }, 30_000);
});
