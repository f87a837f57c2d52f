/**
 * Version skew, end to end: an API whose handlers have a tool (a new version, rolled out to the API
 * first) and a worker whose handlers lack it (the old version) on the same task queue. A call to
 * that tool passes the API's checks and starts an exchange; the worker that takes its first round
 * has no handler for it, and ends the exchange at once with the error the API gives an unknown tool
 * (-32602 `Unknown tool: <name>`), on the 2026-07-28 wire and in Postgres: never a hang until the
 * round timeout, and never a retry loop. A local-activity round and a regular one alike (the API
 * chose the regular one from its own declaration). A tool both versions have still runs.
 */
import { defineTool, type HandlerSet } from '@durable-mcp/handlers';
import { randomUUID } from 'node:crypto';
import { unknownTarget } from '../../lib/protocol/error-catalog';
import { exchangeStartedBy } from '../support/exchange-rows';
import { rawCall, type RpcReply } from '../support/raw-mcp';
import { startTestService, type TestService } from '../support/test-service';
import { until } from '../support/until';

const common = defineTool({
  tool: { name: 'skew_common', inputSchema: { type: 'object' } },
  run: () => ({ content: [{ type: 'text', text: 'both versions have me' }] }),
});
const added = (name: string, roundActivity?: 'regular') =>
  defineTool({
    tool: { name, inputSchema: { type: 'object' } },
    ...(roundActivity ? { roundActivity } : {}),
    run: () => ({ content: [{ type: 'text', text: `${name} ran` }] }),
  });
const NEW: HandlerSet = {
  name: 'skew-tools',
  tools: [common, added('skew_added'), added('skew_added_regular', 'regular')],
};
const OLD: HandlerSet = { name: 'skew-tools', tools: [common] };

/** Well within HTTP_WAIT_MS (50 s, when a leg gives up and says "come back") and the round timeout. */
const PROMPTLY_MS = 10_000;

let api: TestService | undefined;
let worker: TestService | undefined;

beforeAll(async () => {
  const env = { TEMPORAL_TASK_QUEUE: `test-skew-${randomUUID()}` };
  // The new version's API, its own worker stopped: only the old version's worker polls the queue.
  api = await startTestService(env, { handlers: NEW, handlerVersion: 'skew-tools@2.0.0' });
  await api.stopWorker();
  worker = await startTestService(env, { handlers: OLD, handlerVersion: 'skew-tools@1.0.0' });
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
});

async function call(name: string): Promise<{ reply: RpcReply; exchangeId: string; elapsedMs: number }> {
  let reply!: RpcReply;
  const startedAt = Date.now();
  const exchange = await exchangeStartedBy(api!.pool, name, async () => {
    reply = await rawCall(api!.url, 'tools/call', { name, arguments: {} });
  });
  return { reply, exchangeId: exchange.id, elapsedMs: Date.now() - startedAt };
}

it.each([
  ['a local-activity round', 'skew_added'],
  ['a regular-activity round', 'skew_added_regular'],
])('a worker that lacks the tool ends the exchange with the unknown-tool error at once (%s)', async (_kind, name) => {
  const { reply, exchangeId, elapsedMs } = await call(name);
  const expected = unknownTarget('tools/call', name).toJson();
  expect(expected).toEqual({ code: -32602, message: `Unknown tool: ${name}`, data: { path: 'params.name' } });
  // On the wire: the JSON-RPC error itself, in the first leg's reply (not a "come back"), with
  // the HTTP status the API gives a tool it does not have.
  const refused = await rawCall(api!.url, 'tools/call', { name: 'skew_nowhere', arguments: {} });
  expect(reply.body.result).toBeUndefined();
  expect(reply.body.error).toEqual(expected);
  expect(reply.status).toBe(refused.status);
  expect(reply.status).toBe(400);
  expect(elapsedMs).toBeLessThan(PROMPTLY_MS);

  // In Postgres: the exchange is over, failed, after one round that recorded that error.
  const { rows: exchanges } = await api!.pool.query<{ status: string; rounds: number; handler_version: string }>(
    'SELECT status, rounds, handler_version FROM exchanges WHERE id = $1',
    [exchangeId],
  );
  expect(exchanges).toEqual([{ status: 'failed', rounds: 1, handler_version: 'skew-tools@2.0.0' }]);
  const { rows: rounds } = await api!.pool.query<{ round: number; outcome_kind: string; outcome: unknown }>(
    'SELECT round, outcome_kind, outcome FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round',
    [exchangeId],
  );
  expect(rounds).toEqual([{ round: 1, outcome_kind: 'error', outcome: expect.objectContaining({ error: expected }) }]);

  // In Temporal: the workflow completes (an ended exchange, not one left waiting for a worker).
  const { rows } = await api!.pool.query<{ workflow_id: string }>('SELECT workflow_id FROM exchanges WHERE id = $1', [
    exchangeId,
  ]);
  // (A local round's outcome reaches the client before its workflow task completes: moments later.)
  const handle = api!.temporal.workflow.getHandle(rows[0]!.workflow_id);
  await until(
    'the exchange workflow to complete',
    async () => ((await handle.describe()).status.name === 'COMPLETED' ? true : undefined),
    PROMPTLY_MS,
  );
});

it('a tool both versions have runs on the old worker as usual', async () => {
  const { reply } = await call('skew_common');
  expect(reply.body.result?.content).toEqual([{ type: 'text', text: 'both versions have me' }]);
});
