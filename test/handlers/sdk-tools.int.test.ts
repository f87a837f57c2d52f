/**
 * A tool written for the official SDK's `McpServer.registerTool` (zod schemas, the SDK's
 * `acceptedContent` and requestState codec), served through `@durable-mcp/handlers/sdk` from a
 * module outside the project: the service lists it with the schema the SDK converts, refuses
 * what its zod schema refuses, and completes the exchange with a person's answer, on a 2026-07-28
 * client (the official 2.x client) and in a 2025-11-25 session (the official 1.x client), on the
 * real Temporal and Postgres. The codec's state goes through the service's own seal in between.
 */
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client } from '@modelcontextprotocol/client';
import { exchangeStartedBy } from '../support/exchange-rows';
import { moduleFolder, sdkApproveRefundModule } from '../support/handler-modules';
import { connectElicitingLegacyClient } from '../support/eliciting-legacy-client';
import { connectModernClient } from '../support/modern-client';
import { startTestService, type TestService } from '../support/test-service';

const TOOL = 'approve_refund';
const textOf = (result: object) => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe('a tool written for the official SDK, served by durable-mcp', () => {
  const folder = moduleFolder();
  let service: TestService;
  beforeAll(async () => {
    folder.linkNodeModules();
    service = await startTestService({ HANDLERS: folder.write('sdk-tools.ts', sdkApproveRefundModule()) });
  });
  afterAll(async () => {
    await service?.close();
    folder.remove();
  });

  const roundsOf = async (exchangeId: string) =>
    (
      await service.pool.query(
        'SELECT round, outcome_kind FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round',
        [exchangeId],
      )
    ).rows;

  describe('on the 2026-07-28 wire, with the official 2.x client', () => {
    let client: Client;
    const asked: string[] = [];
    beforeAll(async () => {
      client = await connectModernClient(service.url, ({ message }) => {
        asked.push(message);
        return { action: 'accept', content: { approve: true } };
      });
    });
    afterAll(async () => client?.close());

    it('lists the tool with the input schema the SDK converts from zod (beside the built-in await_answer)', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([TOOL, 'await_answer']);
      expect(tools.slice(0, 1)).toEqual([
        expect.objectContaining({
          name: TOOL,
          inputSchema: expect.objectContaining({
            type: 'object',
            properties: {
              order: { type: 'string', pattern: '^A-[0-9]+$' },
              amount: { type: 'number', exclusiveMinimum: 0 },
            },
            required: ['order', 'amount'],
          }),
        }),
      ]);
    });

    it('asks a person once, and their answer completes the refund', async () => {
      let result!: Awaited<ReturnType<Client['callTool']>>;
      const exchange = await exchangeStartedBy(service.pool, TOOL, async () => {
        result = await client.callTool({ name: TOOL, arguments: { order: 'A-7', amount: 20 } });
      });
      expect(textOf(result)).toBe('Refunded 20 on order A-7.');
      expect(asked).toEqual(['Refund 20 on order A-7?']);
      expect(await roundsOf(exchange.id)).toEqual([
        { round: 1, outcome_kind: 'ask' },
        { round: 2, outcome_kind: 'complete' },
      ]);
    });

    it("refuses arguments by the listed JSON Schema first, then by the zod schema's refinements", async () => {
      const negative = await client.callTool({ name: TOOL, arguments: { order: 'A-7', amount: -1 } });
      expect(negative.isError).toBe(true);
      expect(textOf(negative)).toMatch(/^Invalid arguments for tool approve_refund:\n.*amount/);

      const tooLarge = await client.callTool({ name: TOOL, arguments: { order: 'A-7', amount: 900 } });
      expect(tooLarge.isError).toBe(true);
      expect(textOf(tooLarge)).toBe(
        'Input validation error: Invalid arguments for tool approve_refund: a refund over 500 needs a manager',
      );
    });
  });

  it('completes the same exchange in a 2025-11-25 session, with the official 1.x client', async () => {
    const { client, transport, asked } = await connectElicitingLegacyClient(service.url, {
      action: 'accept',
      content: { approve: false },
    });
    try {
      expect(transport.protocolVersion).toBe('2025-11-25');
      let result!: Awaited<ReturnType<LegacyClient['callTool']>>;
      const exchange = await exchangeStartedBy(service.pool, TOOL, async () => {
        result = await client.callTool({ name: TOOL, arguments: { order: 'A-8', amount: 5 } }, undefined, {
          timeout: 30_000,
        });
      });
      expect(textOf(result)).toBe('Refund on order A-8 declined.');
      expect(asked).toEqual(['Refund 5 on order A-8?']);
      expect(await roundsOf(exchange.id)).toEqual([
        { round: 1, outcome_kind: 'ask' },
        { round: 2, outcome_kind: 'complete' },
      ]);
    } finally {
      await client.close();
    }
  });
});
