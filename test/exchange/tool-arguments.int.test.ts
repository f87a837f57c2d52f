/**
 * Tool arguments checked against the tool's inputSchema end to end, on both eras: the official
 * 2026-07-28 client (2.x) and a legacy client (1.x) calling `request_access` without its
 * required fields get an isError result naming each field, and no exchange is recorded or started.
 * A prompt without a required argument is -32602 naming it.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Client } from '@modelcontextprotocol/client';
import { connectModernClient } from '../support/modern-client';
import { taskClient } from '../support/task-client';
import { startTestService, type TestService } from '../support/test-service';

const TOOL = 'request_access';

describe('tools/call arguments against the inputSchema', () => {
  let service: TestService;
  let modern: Client;
  let legacy: LegacyClient;
  beforeAll(async () => {
    service = await startTestService();
    modern = await connectModernClient(service.url, {});
    legacy = new LegacyClient({ name: 'durable-mcp-tests', version: '1.0.0' });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(service.url)));
  });
  afterAll(async () => {
    await legacy?.close();
    await modern?.close();
    await service?.close();
  });

  const exchangesOfTool = async () =>
    Number((await service.pool.query('SELECT count(*) FROM exchanges WHERE target = $1', [TOOL])).rows[0].count);
  const count = async (table: string) =>
    Number((await service.pool.query(`SELECT count(*) FROM ${table}`)).rows[0].count);
  const textOf = (result: object) => (result as { content: Array<{ text: string }> }).content[0]!.text;

  it.each([
    ['2026-07-28', () => modern.callTool({ name: TOOL, arguments: { hours: 48 } })],
    ['legacy era', () => legacy.callTool({ name: TOOL, arguments: { hours: 48 } })],
  ])('answers invalid arguments with isError naming each field, starting nothing (%s)', async (_era, call) => {
    const before = await exchangesOfTool();
    const calls = await count('legacy_calls');
    const result = await call();
    expect(result.isError).toBe(true);
    expect(textOf(result).split('\n')).toEqual([
      `Invalid arguments for tool ${TOOL}:`,
      'arguments.service: is required',
      'arguments.reason: is required',
      'arguments.hours: must be <= 24',
    ]);
    expect(await exchangesOfTool()).toBe(before);
    expect(await count('legacy_calls')).toBe(calls);
  });

  it('answers a call that would become a task the same way: complete, no task', async () => {
    const tasks = await count('exchange_tasks');
    const reply = await taskClient(() => service.url).call(TOOL, { service: '', reason: 'incident 42' });
    expect(reply.status).toBe(200);
    expect(reply.body.result).toMatchObject({ resultType: 'complete', isError: true });
    expect(textOf(reply.body.result!)).toContain('arguments.service: must NOT have fewer than 1 characters');
    expect(await count('exchange_tasks')).toBe(tasks);
  });

  it('refuses a prompt without its required argument with -32602 naming it', async () => {
    await expect(modern.getPrompt({ name: 'incident_brief', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Missing required argument: service'),
    });
    await expect(legacy.getPrompt({ name: 'incident_brief', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
});
