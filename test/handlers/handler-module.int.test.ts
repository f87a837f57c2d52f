/**
 * A service started with HANDLERS naming a module outside the project serves that module's tool,
 * and nothing of the built-in sets: the API lists it and checks its arguments against its schema,
 * and the worker runs its rounds, so one person's answer completes the exchange over the bare
 * 2026-07-28 wire, on the real Temporal and Postgres. No package.json owns the module, so the
 * exchange records a digest of its code as the version of its handlers.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { exchangeStartedBy } from '../support/exchange-rows';
import { approveRefundModule, moduleFolder } from '../support/handler-modules';
import { accept, rawCall } from '../support/raw-mcp';
import { startTestService, type TestService } from '../support/test-service';

describe('a service serving the module HANDLERS names', () => {
  const folder = moduleFolder();
  let service: TestService;
  let moduleFile: string;
  beforeAll(async () => {
    moduleFile = folder.write('refund-tools.ts', approveRefundModule());
    service = await startTestService({ HANDLERS: moduleFile });
  });
  const exchangesOfTool = async () =>
    Number((await service.pool.query("SELECT count(*) FROM exchanges WHERE target = 'approve_refund'")).rows[0].count);
  afterAll(async () => {
    await service?.close();
    folder.remove();
  });

  it("lists the module's tool, and only it beside the built-in await_answer", async () => {
    const listed = await rawCall(service.url, 'tools/list', {});
    expect((listed.body.result?.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual([
      'approve_refund',
      'await_answer',
    ]);
  });

  it("refuses arguments the module's schema refuses, before any exchange starts", async () => {
    // Other test files serve approve_refund too: count this service's exchanges before and after.
    const before = await exchangesOfTool();
    const reply = await rawCall(service.url, 'tools/call', { name: 'approve_refund', arguments: { order: 'A-1' } });
    expect(reply.body.result).toMatchObject({ isError: true });
    expect(await exchangesOfTool()).toBe(before);
  });

  it('asks a person once, and the answer completes the refund', async () => {
    const call = { name: 'approve_refund', arguments: { order: 'A-1', amount: 20 } };
    let ask!: Awaited<ReturnType<typeof rawCall>>;
    const exchange = await exchangeStartedBy(service.pool, 'approve_refund', async () => {
      ask = await rawCall(service.url, 'tools/call', call);
    });
    expect(ask.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { approval: { method: 'elicitation/create', params: { message: 'Refund 20 on order A-1?' } } },
    });

    const done = await rawCall(service.url, 'tools/call', {
      ...call,
      inputResponses: { approval: accept({ approve: true }) },
      requestState: ask.body.result!.requestState,
    });
    expect(done.body.result?.content).toEqual([{ type: 'text', text: 'Refunded 20 on order A-1.' }]);

    const { rows } = await service.pool.query(
      'SELECT round, outcome_kind FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round',
      [exchange.id],
    );
    expect(rows).toEqual([
      { round: 1, outcome_kind: 'ask' },
      { round: 2, outcome_kind: 'complete' },
    ]);
  });

  it("records the module's version with the exchange: its file's name and a digest of its code", async () => {
    const digest = createHash('sha256').update(readFileSync(moduleFile)).digest('hex').slice(0, 12);
    const exchange = await exchangeStartedBy(service.pool, 'approve_refund', () =>
      rawCall(service.url, 'tools/call', { name: 'approve_refund', arguments: { order: 'A-2', amount: 5 } }),
    );
    const { rows } = await service.pool.query<{ handler_version: string }>(
      'SELECT handler_version FROM exchanges WHERE id = $1',
      [exchange.id],
    );
    expect(rows).toEqual([{ handler_version: `refund-tools.ts@sha256:${digest}` }]);
  });
});
