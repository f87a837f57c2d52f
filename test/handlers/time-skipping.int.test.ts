/**
 * The time-skipping helper of `@durable-mcp/testing/time-skipping`, from the package's source: the real exchange workflow and activities in
 * Temporal's time-skipping test server, with the shared test Postgres. A 600 s round timeout
 * passes in a short wall time, and the exchange ends expired with the service's -32001.
 */
import { greet } from '../../built-in-handlers/demo/greet';
import { refundOrder } from '../../built-in-handlers/demo/refund-order';
import {
  EXCHANGE_EXPIRED,
  createTimeSkippingExchanges,
  findTestServer,
  type TimeSkippingExchanges,
} from '@durable-mcp/testing/time-skipping';
import { EXCHANGE_ROUND, EXCHANGE_STATUS } from '../../lib/exchange/search-attributes';
import { readStackInfo } from '../support/stack-info';

const ROUND_TIMEOUT_MS = 600_000;
const elicitation = { capabilities: { elicitation: {} } };

let exchanges: TimeSkippingExchanges;
// False when the helper failed to start: nothing to tear down, and the failure is the test's.
let created = false;

beforeEach(async () => {
  const stack = readStackInfo();
  created = false;
  exchanges = await createTimeSkippingExchanges({
    handlers: { name: 'time-skipping', tools: [greet] },
    databaseUrl: stack.databaseUrl,
    workflowBundle: { codePath: stack.workflowBundlePath },
  });
  created = true;
});

afterEach(async () => {
  if (created) await exchanges.teardown();
});

// CI installs one (.ci/run) and has no internet; elsewhere the helper may download it.
(process.env.CI ? it : it.skip)(
  'runs on a test server found without a download (TEMPORAL_TEST_SERVER_PATH or PATH)',
  () => {
    expect(findTestServer()).toEqual(expect.any(String));
  },
);

it('lets a 600 s round timeout pass in a short wall time: the exchange ends expired', async () => {
  const exchange = await exchanges.startTool('greet', {}, elicitation);
  const ask = await exchange.round(1);
  expect(ask.outcome.kind).toBe('ask');
  // The deadline is set when the ask is recorded (the two clocks read a moment apart).
  const roundWindow = ask.deadlineAt!.getTime() - ask.recordedAt.getTime();
  expect(roundWindow).toBeGreaterThan(ROUND_TIMEOUT_MS - 1_000);
  expect(roundWindow).toBeLessThanOrEqual(ROUND_TIMEOUT_MS);

  const serverStart = await exchanges.env.currentTimeMs();
  const wallStart = Date.now();
  const ending = await exchange.ending();
  const wallMs = Date.now() - wallStart;

  expect(ending).toEqual({
    status: 'expired',
    round: 2,
    asks: 1,
    error: {
      code: EXCHANGE_EXPIRED,
      message: `Exchange expired: the answers to round 1 did not arrive within ${ROUND_TIMEOUT_MS} ms`,
      data: { exchangeId: exchange.exchangeId, round: 1, roundTimeoutMs: ROUND_TIMEOUT_MS },
    },
  });
  expect((await exchanges.env.currentTimeMs()) - serverStart).toBeGreaterThanOrEqual(ROUND_TIMEOUT_MS - 1_000);
  expect(wallMs).toBeLessThan(30_000);

  // What operators search by says the same.
  const description = await exchanges.env.client.workflow.getHandle(exchange.workflowId).describe();
  expect(description.status.name).toBe('COMPLETED');
  expect(description.typedSearchAttributes.get(EXCHANGE_STATUS)).toBe('expired');
  expect(description.typedSearchAttributes.get(EXCHANGE_ROUND)).toBe(2);
});

it('takes answers sent after 599 of the 600 s have been skipped', async () => {
  const exchange = await exchanges.startTool('greet', { greeting: 'Hello' }, elicitation);
  expect((await exchange.round(1)).outcome.kind).toBe('ask');
  await exchanges.env.sleep(ROUND_TIMEOUT_MS - 1_000);
  await exchange.answer(1, { name: { action: 'accept', content: { name: 'Ada' } } });
  const ending = await exchange.ending();
  expect(ending).toEqual({
    status: 'completed',
    round: 2,
    asks: 1,
    result: { content: [{ type: 'text', text: 'Hello, Ada!' }] },
  });
});

it('refuses to start an exchange once time was skipped in its environment', async () => {
  await exchanges.env.sleep(60_000);
  await expect(exchanges.startTool('greet', {}, elicitation)).rejects.toThrow(/fresh one/);
});

describe('a question addressed to an approver, in the time-skipping helper', () => {
  const ISSUER = 'https://id.example.com';
  const caller = { id: `${ISSUER}|ann`, subject: 'ann', issuer: ISSUER, scopes: [] };
  const approver = { issuer: ISSUER, subject: 'pat', groups: ['refund-approvers'], name: 'Pat' };

  beforeEach(async () => {
    await exchanges.teardown();
    created = false;
    const stack = readStackInfo();
    exchanges = await createTimeSkippingExchanges({
      handlers: { name: 'refunds', tools: [refundOrder] },
      databaseUrl: stack.databaseUrl,
      workflowBundle: { codePath: stack.workflowBundlePath },
    });
    created = true;
  });
  const args = { order: 'A-7', amount: 30, reason: 'damaged' };

  it('waits hours for the approver, refuses the caller and an outsider, and takes the approver', async () => {
    const exchange = await exchanges.startTool('refund_order', args, { principal: caller });
    await exchange.round(1);
    await exchanges.env.sleep(3 * 3_600_000);
    const asCaller = { issuer: ISSUER, subject: 'ann', groups: ['refund-approvers'] };
    expect(await exchange.answerAs(1, asCaller, { approval: { action: 'accept', content: {} } })).toEqual([
      { key: 'approval', reply: 'caller-excluded' },
    ]);
    const outsider = { issuer: ISSUER, subject: 'sam', groups: ['sales'] };
    expect(await exchange.answerAs(1, outsider, { approval: { action: 'accept', content: {} } })).toEqual([
      { key: 'approval', reply: 'not-addressed' },
    ]);
    expect(
      await exchange.answerAs(1, approver, { approval: { action: 'accept', content: { note: 'sorry' } } }),
    ).toEqual([{ key: 'approval', reply: 'taken' }]);
    expect(await exchange.ending()).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Refunded 30 on order A-7, approved by Pat. Note: sorry' }] },
    });
  });

  it('expires at the question wait (4 h) when nobody answers', async () => {
    const exchange = await exchanges.startTool('refund_order', args, { principal: caller });
    const ask = await exchange.round(1);
    expect(ask.deadlineAt!.getTime() - ask.recordedAt.getTime()).toBeGreaterThan(4 * 3_600_000 - 1_000);
    expect(await exchange.ending()).toMatchObject({ status: 'expired', error: { code: EXCHANGE_EXPIRED } });
  });
});
