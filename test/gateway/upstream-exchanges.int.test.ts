/**
 * The gateway in front of a real upstream: the official TypeScript SDK 2.x server, 2026-07-28 only,
 * with its own multi-round tool (test/support/sdk-upstream.ts), declared by UPSTREAM_URL with a
 * tool prefix. Its tools are listed beside the local ones; a call to one is a durable exchange whose
 * rounds call the upstream, and its ask reaches the official 2.x client as an ask and the 1.x client
 * (2025-11-25) as a real `elicitation/create` on its stream. Each upstream call carries the
 * gateway's own credential, the exchange's client capabilities and an idempotency key naming the
 * exchange and round; the upstream's requestState comes back to it as it sent it, and is held
 * nowhere bare meanwhile: not in what the client gets, not in the admin API, Postgres or the Temporal
 * UI's details, not in Temporal's history (read through the payload codec); the admin API and the
 * Temporal UI show the exchange as any other. A plain call is served to clients of both eras.
 */
import { randomInt } from 'node:crypto';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import { useTestService } from '../support/test-service';
import { exchangeStatus } from '../support/exchange-rows';
import { rawCall } from '../support/raw-mcp';
import { admin, TEST_ADMIN_TOKEN } from '../support/admin-client';
import { TEST_CODEC_KEY_RING } from '../support/test-service';
import { decodedHistory, visibleText } from '../support/history-payloads';
import { parseKeyRing } from '../../lib/config';
import { createPayloadCodec } from '../../lib/payload-codec/payload-codec';

const UPSTREAM_TOKEN = 'gateway-own-credential';
let upstream: SdkUpstream;
const env: Record<string, string> = {
  UPSTREAM_NAME: 'shop',
  UPSTREAM_TOOL_PREFIX: 'shop_',
  UPSTREAM_BEARER_TOKEN: UPSTREAM_TOKEN,
  ADMIN_TOKEN: TEST_ADMIN_TOKEN,
};
beforeAll(async () => {
  upstream = await startSdkUpstream();
  env.UPSTREAM_URL = upstream.url;
});
afterAll(() => upstream?.close());
const service = useTestService(env);

type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };
const textOf = (result: unknown) => (result as ToolResult).content[0]?.text;
const callsOf = (order: string) => upstream.calls.filter((call) => call.arguments?.order === order);

describe('the gateway in front of an official SDK server', () => {
  it('lists the upstream tools, prefixed, beside the local ones', async () => {
    const client = await connectModernClient(service.url, {});
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['shop_add', 'shop_confirm_order', 'greet']));
    expect(tools.find((tool) => tool.name === 'shop_add')?.description).toBe('Adds two numbers.');
    await client.close();
  });

  it('serves a plain upstream call to a 2026-07-28 client', async () => {
    const client = await connectModernClient(service.url, {});
    const result = await client.callTool({ name: 'shop_add', arguments: { a: 2, b: 3 } });
    expect(textOf(result)).toBe('5');
    await client.close();
  });

  it('serves a plain upstream call to a 2025-11-25 client', async () => {
    const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new LegacyTransport(new URL(service.url)));
    const result = await client.callTool({ name: 'shop_add', arguments: { a: 4, b: 5 } }, CallToolResultSchema);
    expect(textOf(result)).toBe('9');
    await client.close();
  });

  it("keeps the upstream's own requestState sealed: the client, the admin API, Postgres and Temporal never hold it bare", async () => {
    const order = `S-${randomInt(1_000_000_000)}`;
    const theirs = `order:${order}`;
    const asked = await rawCall(service.url, 'tools/call', { name: 'shop_confirm_order', arguments: { order } });
    expect(asked.body.result?.resultType).toBe('input_required');
    const ours = asked.body.result!.requestState as string;
    expect(JSON.stringify(asked.body)).not.toContain(theirs);
    const exchangeId = (callsOf(order)[0]!._meta?.idempotencyKey as string).split('/')[0]!;

    // While it waits, the admin API and the Temporal UI show it as any exchange, its state in neither.
    const shown = await admin(service.url, `/exchanges/${exchangeId}`);
    expect(shown.status).toBe(200);
    expect(shown.body.exchange).toMatchObject({ id: exchangeId, status: 'running', target: 'shop_confirm_order' });
    expect(shown.body.rounds).toEqual([
      expect.objectContaining({ round: 1, kind: 'ask', inputRequests: { confirm: expect.any(Object) } }),
    ]);
    expect(JSON.stringify(shown.body)).not.toContain(theirs);
    const handle = service.temporal.workflow.getHandle(`exchange-${exchangeId}`);
    expect(await (await handle.describe()).staticDetails()).toContain('run as regular activities');
    const { currentDetails } = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    expect(currentDetails).toContain('**Waiting for the answers to round 1** of tools/call shop_confirm_order');
    expect(currentDetails).not.toContain(theirs);
    // Declined: the tool's result ("declined") does not repeat its state, so none of it is the result's.
    const answered = await rawCall(service.url, 'tools/call', {
      name: 'shop_confirm_order',
      arguments: { order },
      requestState: ours,
      inputResponses: { confirm: { action: 'decline' } },
    });
    expect(textOf(answered.body.result)).toBe('declined');
    const [, second] = callsOf(order);
    expect(second!.requestState).toBe(theirs); // returned to the upstream byte for byte

    const { rows: tables } = await service.pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns
        WHERE column_name = 'exchange_id' AND table_schema = current_schema()`,
    );
    for (const { table_name: table } of [...tables, { table_name: 'exchanges' }]) {
      const key = table === 'exchanges' ? 'id' : 'exchange_id';
      const { rows } = await service.pool.query<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM "${table}" t WHERE ${key} = $1`,
        [exchangeId],
      );
      expect({ table, rows: rows.filter(({ row }) => row.includes(theirs)) }).toEqual({ table, rows: [] });
    }
    const { rows: exchange } = await service.pool.query<{ workflow_id: string }>(
      'SELECT workflow_id FROM exchanges WHERE id = $1',
      [exchangeId],
    );
    const history = await service.temporal.workflow.getHandle(exchange[0]!.workflow_id).fetchHistory();
    const codec = createPayloadCodec({
      keys: parseKeyRing('PAYLOAD_CODEC_KEYS', TEST_CODEC_KEY_RING),
      acceptPlaintext: true,
      namespace: service.config.temporal.namespace,
    });
    const decoded = visibleText(await decodedHistory(history, codec));
    expect(decoded).toContain(order); // the call's arguments: the history was read decoded
    expect(decoded).not.toContain(theirs);
  });

  it('carries the upstream ask to a 2026-07-28 client and its answer back, with the upstream state and a key per round', async () => {
    const client = await connectModernClient(service.url, async () => ({ action: 'accept', content: { name: 'Ada' } }));
    const result = await client.callTool({ name: 'shop_confirm_order', arguments: { order: 'G-1' } });
    expect(textOf(result)).toBe('placed G-1 for Ada (order:G-1)');
    const [first, second] = callsOf('G-1');
    expect(callsOf('G-1')).toHaveLength(2);
    const key = first!._meta?.idempotencyKey as string;
    expect(key).toMatch(/^[0-9a-f-]{36}\/1$/);
    expect(second!._meta?.idempotencyKey).toBe(key.replace(/\/1$/, '/2'));
    expect(second!.requestState).toBe('order:G-1');
    expect(second!.inputResponses).toEqual({ confirm: { action: 'accept', content: { name: 'Ada' } } });
    expect(first!._meta?.['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: {} });
    expect(first!.authorization).toBe(`Bearer ${UPSTREAM_TOKEN}`);
    expect(first!._meta?.['io.durable-mcp/caller']).toBeUndefined();
    expect(await exchangeStatus(service.pool, key.split('/')[0]!)).toBe('completed');
    await client.close();
  });

  it('carries the ask of an upstream tool that declares an output schema, and its structured result', async () => {
    const client = await connectModernClient(service.url, async () => ({ action: 'accept', content: { seats: 3 } }));
    const result = (await client.callTool({ name: 'shop_reserve', arguments: { show: 'Tosca' } })) as ToolResult & {
      structuredContent?: unknown;
    };
    expect(result.structuredContent).toEqual({ show: 'Tosca', seats: 3 });
    await client.close();
  });

  it("sends a 2026-only upstream's ask to a 2025-11-25 client as a real elicitation/create", async () => {
    const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { name: 'Grace' } };
    });
    await client.connect(new LegacyTransport(new URL(service.url)));
    const result = await client.callTool(
      { name: 'shop_confirm_order', arguments: { order: 'G-2' } },
      CallToolResultSchema,
    );
    expect(textOf(result)).toBe('placed G-2 for Grace (order:G-2)');
    expect(asked).toEqual(['Place order G-2?']);
    await client.close();
  });

  it('refuses an upstream ask the client did not declare, with -32021, as for a local handler', async () => {
    const client = await connectModernClient(service.url, {});
    const refused = await client.callTool({ name: 'shop_confirm_order', arguments: { order: 'G-3' } }).then(
      () => undefined,
      (error: { code?: number }) => error.code,
    );
    expect(refused).toBe(-32021);
    await client.close();
  });

  // Last: it stops the upstream.
  it('gives the call a tool error naming the upstream when it cannot be reached, and ends the exchange', async () => {
    await upstream.close();
    const client = await connectModernClient(service.url, {});
    const result = (await client.callTool({ name: 'shop_add', arguments: { a: 1, b: 1 } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The upstream server shop could not be reached for add: /);
    const { rows } = await service.pool.query<{ status: string }>(
      `SELECT status FROM exchanges WHERE target = 'shop_add' ORDER BY created_at DESC LIMIT 1`,
    );
    expect(rows).toEqual([{ status: 'completed' }]);
    await client.close();
  });
});
