/**
 * An operator ends an exchange from Temporal (the Web UI's Request Cancellation, or Terminate)
 * while it waits for an answer: the client's next leg gets a clear error saying so, and the
 * service's record and the workflow's search attributes say how it ended.
 */
import { EXCHANGE_CANCELLED, EXCHANGE_TERMINATED } from '../../lib/protocol/exchange-errors';
import { answerGreet, newTrace, startGreet, type Ask } from './support/modern-exchange';
import { faultSuite, scenario } from './support/scenario';
import { describeExchangeWorkflow } from './support/temporal-probe';
import { waitFor } from './support/wait-for';

const suite = faultSuite();

const apis = { urls: () => suite.stack.apiUrls() };

async function workflowIdOf(ask: Ask): Promise<string> {
  return (
    await suite.stack.query<{ workflow_id: string }>('SELECT workflow_id FROM exchanges WHERE id = $1', [
      ask.exchangeId,
    ])
  )[0]!.workflow_id;
}

async function statusOf(exchangeId: string): Promise<string | undefined> {
  return (await suite.stack.query<{ status: string }>('SELECT status FROM exchanges WHERE id = $1', [exchangeId]))[0]
    ?.status;
}

/** The next leg's outcome; a client still told "come back" after a minute is an outcome too, reported as such. */
async function nextLeg(ask: Ask, name: string): Promise<unknown> {
  try {
    const reply = await answerGreet(apis, ask, name, newTrace(), 60_000);
    return reply.body.error ? { code: reply.body.error.code, data: reply.body.error.data } : reply.body.result;
  } catch (error) {
    return (error as Error).message;
  }
}

async function settledStatus(exchangeId: string, expected: string): Promise<string | undefined> {
  try {
    return await waitFor(
      `Postgres status ${expected}`,
      async () => ((await statusOf(exchangeId)) === expected ? expected : undefined),
      { timeoutMs: 30_000 },
    );
  } catch {
    return statusOf(exchangeId);
  }
}

scenario(
  'i. operator cancel while the exchange waits: the next leg gets -32012 (cancelledBy operator), recorded cancelled',
  () => suite.stack,
  suite.run,
  async () => {
    const ask = await startGreet(apis, newTrace(), suite.stack.keyRing);
    const workflowId = await workflowIdOf(ask);
    await suite.stack.withTemporal((client) => client.workflow.getHandle(workflowId).cancel());
    const leg = await nextLeg(ask, 'Ops');
    const status = await settledStatus(ask.exchangeId, 'cancelled');
    // The workflow publishes its status in the workflow task after the recording activity: wait for it.
    let searchAttribute: unknown;
    try {
      searchAttribute = await waitFor(
        'the ExchangeStatus search attribute to say cancelled',
        async () => {
          const { exchangeStatus } = await describeExchangeWorkflow(suite.stack, workflowId);
          return exchangeStatus === 'cancelled' ? exchangeStatus : undefined;
        },
        { timeoutMs: 15_000 },
      );
    } catch {
      searchAttribute = (await describeExchangeWorkflow(suite.stack, workflowId)).exchangeStatus;
    }
    expect({ leg, status, searchAttribute }).toEqual({
      leg: { code: EXCHANGE_CANCELLED, data: expect.objectContaining({ cancelledBy: 'operator' }) },
      status: 'cancelled',
      searchAttribute: 'cancelled',
    });
  },
);

scenario(
  'i. operator terminate while the exchange waits: the next leg gets -32013 (workflowStatus TERMINATED), recorded terminated',
  () => suite.stack,
  suite.run,
  async () => {
    const ask = await startGreet(apis, newTrace(), suite.stack.keyRing);
    const workflowId = await workflowIdOf(ask);
    await suite.stack.withTemporal((client) =>
      client.workflow.getHandle(workflowId).terminate('fault suite: operator terminate'),
    );
    const leg = await nextLeg(ask, 'Ops');
    const status = await settledStatus(ask.exchangeId, 'terminated');
    expect({ leg, status }).toEqual({
      leg: { code: EXCHANGE_TERMINATED, data: expect.objectContaining({ workflowStatus: 'TERMINATED' }) },
      status: 'terminated',
    });
  },
);
