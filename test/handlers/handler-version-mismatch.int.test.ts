/**
 * A worker whose handlers have another version than the API that started an exchange (a rollout
 * half done) still runs the exchange's rounds, and says so once for each round it runs, naming both
 * versions; a round of the same version, or of an exchange started before versions were recorded,
 * says nothing. The round activity runs under Temporal's activity test environment against the
 * real Postgres.
 */
import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createRunRound } from '../../activities/run-round';
import { createExchangeStorePg } from '../../lib/db/exchange-store-pg';
import { createPool } from '../../lib/db/pool';
import { migrate } from '../../lib/db/migrate';
import type { ExchangeInput } from '../../lib/exchange/types';
import { defineTool } from '@durable-mcp/handlers';
import { createLogger } from '../../lib/log';
import { createHandlerStateCodec } from '../../lib/state/handler-state';
import { createSealer } from '../../lib/state/sealer';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { readStackInfo } from '../support/stack-info';
import { TEST_KEY_RING } from '../support/test-service';
import { defaultHandlerBounds } from '../support/handler-bounds';

const lines: Array<Record<string, unknown>> = [];
const log = createLogger('test', 'info', {
  sync: true,
  destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
});
const pool = createPool(readStackInfo().databaseUrl, 2, createLogger('test', 'silent'));
const store = createExchangeStorePg(pool);

const WORKER_VERSION = 'refund-tools@2.0.0';
const greet = defineTool({
  tool: { name: 'version_greet', inputSchema: { type: 'object' } },
  run: () => ({ content: [{ type: 'text', text: 'hello' }] }),
});
const [kid, key] = TEST_KEY_RING.split(':') as [string, string];
const runRound = createRunRound({
  store,
  handlers: { name: 'refunds', tools: [greet] },
  handlerVersion: WORKER_VERSION,
  handlerState: createHandlerStateCodec(createSealer([{ kid, key: Buffer.from(key, 'base64') }])),
  log,
  ...defaultHandlerBounds(),
});

/** An exchange whose row exists, started by handlers of `handlerVersion` (none: before versions were recorded). */
async function newExchange(handlerVersion?: string): Promise<ExchangeInput> {
  const exchange: ExchangeInput = {
    exchangeId: randomUUID(),
    era: 'modern',
    request: { method: 'tools/call', target: 'version_greet', params: { name: 'version_greet', arguments: {} } },
    principal: 'anonymous',
    clientCapabilities: {},
    roundTimeoutMs: 60_000,
    maxRounds: 8,
    ...(handlerVersion !== undefined ? { handlerVersion } : {}),
  };
  await store.createExchange(exchange, workflowIdFor(exchange.exchangeId));
  return exchange;
}

const round = (exchange: ExchangeInput, isLocal: boolean) =>
  new MockActivityEnvironment({ attempt: 1, isLocal }).run(runRound, { exchange, round: 1, mayAsk: true });

const warningsOf = (exchange: ExchangeInput) =>
  lines.filter((line) => line.exchangeId === exchange.exchangeId && line.level === 40);

beforeAll(() => migrate(pool, log));
afterAll(() => pool.end());

describe('a round of an exchange that another version of the handlers started', () => {
  it.each([
    ['a local', true],
    ['a regular', false],
  ])('runs as %s activity on this worker, with one warning naming both versions', async (_kind, isLocal) => {
    const exchange = await newExchange('refund-tools@1.0.0');
    expect(await round(exchange, isLocal)).toMatchObject({ kind: 'complete', status: 'completed' });
    const warnings = warningsOf(exchange);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      round: 1,
      exchangeHandlerVersion: 'refund-tools@1.0.0',
      workerHandlerVersion: WORKER_VERSION,
    });
    const { rows } = await pool.query<{ handler_version: string }>(
      'SELECT handler_version FROM exchanges WHERE id = $1',
      [exchange.exchangeId],
    );
    // What the exchange recorded stays the version that started it.
    expect(rows).toEqual([{ handler_version: 'refund-tools@1.0.0' }]);
  });

  it('says nothing when the versions agree, or when the exchange predates recorded versions', async () => {
    const same = await newExchange(WORKER_VERSION);
    const unversioned = await newExchange();
    expect(await round(same, true)).toMatchObject({ kind: 'complete' });
    expect(await round(unversioned, true)).toMatchObject({ kind: 'complete' });
    expect(warningsOf(same)).toEqual([]);
    expect(warningsOf(unversioned)).toEqual([]);
    // The rounds did run and log (so the absence of a warning is not the absence of lines).
    expect(lines.some((line) => line.exchangeId === same.exchangeId && line.msg === 'round started')).toBe(true);
  });
});
