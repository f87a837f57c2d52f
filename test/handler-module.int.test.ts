/**
 * A service started with HANDLERS naming a module outside the project serves that module's tool,
 * and nothing of the built-in sets: the API lists it and checks its arguments against its schema,
 * and the worker runs its rounds, so one person's answer completes the exchange over the bare
 * 2026-07-28 wire, on the real Temporal and Postgres. No package.json owns the module, so the
 * exchange records a digest of its code as the version of its handlers.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { approveRefundModule, moduleFolder } from './support/handler-modules';
import { accept, rawCall } from './support/raw-mcp';
import { startTestService, type TestService } from './support/test-service';

describe('a service serving the module HANDLERS names', () => {
  const folder = moduleFolder();
  let service: TestService;
  let moduleFile: string;
  beforeAll(async () => {
    moduleFile = folder.write('refund-tools.ts', approveRefundModule());
    service = await startTestService({ HANDLERS: moduleFile });
  });
  afterAll(async () => {
    await service?.close();
    folder.remove();
  });

  it("lists the module's tool, and only it", async () => {
    const listed = await rawCall(service.url, 'tools/list', {});
    expect((listed.body.result?.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(['approve_refund']);
  });

  it("refuses arguments the module's schema refuses, before any exchange starts", async () => {
    const reply = await rawCall(service.url, 'tools/call', { name: 'approve_refund', arguments: { order: 'A-1' } });
    expect(reply.body.result).toMatchObject({ isError: true });
    const { rows } = await service.pool.query("SELECT 1 FROM exchanges WHERE target = 'approve_refund'");
    expect(rows).toEqual([]);
  });

  it('asks a person once, and the answer completes the refund', async () => {
    const call = { name: 'approve_refund', arguments: { order: 'A-1', amount: 20 } };
    const ask = await rawCall(service.url, 'tools/call', call);
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
      `SELECT r.round, r.outcome_kind FROM exchange_rounds r JOIN exchanges e ON e.id = r.exchange_id
        WHERE e.target = 'approve_refund' ORDER BY r.round`,
    );
    expect(rows).toEqual([
      { round: 1, outcome_kind: 'ask' },
      { round: 2, outcome_kind: 'complete' },
    ]);
  });

  it("records the module's version with the exchange: its file's name and a digest of its code", async () => {
    const digest = createHash('sha256').update(readFileSync(moduleFile)).digest('hex').slice(0, 12);
    const { rows } = await service.pool.query<{ handler_version: string }>(
      "SELECT DISTINCT handler_version FROM exchanges WHERE target = 'approve_refund'",
    );
    expect(rows).toEqual([{ handler_version: `refund-tools.ts@sha256:${digest}` }]);
  });
});
