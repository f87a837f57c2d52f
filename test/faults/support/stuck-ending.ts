/**
 * What the stuck workflow scenarios do to an exchange from outside the service, and read back of
 * how it ended: an answer signalled straight into Temporal with a payload bound to the namespace
 * alone (as a script holding the codec key but naming no workflow would send it), and the ending
 * as every party keeps it: Postgres's row and last round, Temporal's workflow, the admin list
 * and the API processes' metric.
 */
import { randomUUID } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { admin } from '../../support/admin-client';
import { workflowIdFor } from '../../../lib/exchange-client/workflow-messages';
import type { FaultStack } from './fault-stack';
import { waitFor } from './wait-for';

/**
 * Signals `answers` to the exchange's workflow through Temporal's gRPC API, its payload sealed with
 * the deployment's codec key but bound to the namespace alone (the codec given no context), which a
 * worker refuses where a workflow's own payload is expected: its workflow tasks fail from then on.
 */
export async function signalNamespaceOnlyAnswer(stack: FaultStack, exchangeId: string): Promise<void> {
  await stack.withTemporal(async (client) => {
    const [codec] = client.options.loadedDataConverter.payloadCodecs;
    const answer = defaultPayloadConverter.toPayload({
      round: 1,
      responses: { name: { action: 'accept', content: { name: 'Mallory' } } },
      digest: 'copied',
      sentAt: Date.now(),
    });
    const payloads = await codec!.encode([answer]);
    await client.workflowService.signalWorkflowExecution({
      namespace: client.options.namespace,
      workflowExecution: { workflowId: workflowIdFor(exchangeId) },
      signalName: 'answers',
      input: { payloads },
      identity: 'a script with the codec key',
      requestId: randomUUID(),
    });
  });
}

/** How many stuck workflows the running API processes ended, by class, summed over them. */
export async function stuckWorkflowsEnded(stack: FaultStack, cause: string): Promise<number> {
  let total = 0;
  for (const url of stack.apiUrls()) {
    const text = await (await fetch(url.replace(/\/mcp$/, '/metrics'))).text();
    const sample = new RegExp(`^mcp_stuck_workflows_ended_total\\{cause="${cause}"\\} (\\d+)$`, 'm').exec(text);
    total += Number(sample?.[1] ?? 0);
  }
  return total;
}

export interface StuckEnding {
  /** The exchange's row, and its last recorded round's error. */
  postgres: { status: string; rounds: number; error: unknown };
  /** Every round recorded before the ending (their kinds, in order). */
  recordedKinds: string[];
  /** Temporal's workflow: its status and the class its termination reason names. */
  workflow: { status: string; reason: string | undefined };
  /** What the admin list shows of it among the failed exchanges. */
  adminList: unknown;
}

/** The exchange's ending as each party keeps it, once Postgres says it ended. */
export async function stuckEnding(stack: FaultStack, exchangeId: string): Promise<StuckEnding> {
  const row = await waitFor('the exchange to be ended in Postgres', async () => {
    const [found] = await stack.query<{ status: string; rounds: number }>(
      'SELECT status, rounds FROM exchanges WHERE id = $1',
      [exchangeId],
    );
    return found && found.status !== 'running' ? found : undefined;
  });
  const rounds = await stack.query<{ outcome_kind: string; outcome: { error?: unknown } }>(
    'SELECT outcome_kind, outcome FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round',
    [exchangeId],
  );
  const workflow = await stack.withTemporal(async (client) => {
    const handle = client.workflow.getHandle(workflowIdFor(exchangeId));
    const { status } = await handle.describe();
    const history = await handle.fetchHistory();
    const terminated = history.events?.at(-1)?.workflowExecutionTerminatedEventAttributes;
    return { status: status.name, reason: terminated?.reason ?? undefined };
  });
  const list = await admin(stack.apiUrl(0), '/exchanges?status=failed&limit=200');
  const listed = (list.body.exchanges as Array<{ id: string; status: string; error?: unknown }>).find(
    (exchange) => exchange.id === exchangeId,
  );
  return {
    postgres: { status: row.status, rounds: row.rounds, error: rounds.at(-1)?.outcome.error },
    recordedKinds: rounds.map((round) => round.outcome_kind),
    workflow,
    adminList: listed && { status: listed.status, error: listed.error },
  };
}

/** What every party keeps of an exchange the sweep ended for `cause`, after `asks` recorded asks. */
export function endedFor(exchangeId: string, cause: string, asks: number) {
  const error = {
    code: -32603,
    message: expect.stringContaining('its workflow could not run'),
    data: { exchangeId, cause },
  };
  return {
    postgres: { status: 'failed', rounds: asks + 1, error },
    recordedKinds: [...Array<string>(asks).fill('ask'), 'error'],
    workflow: {
      status: 'TERMINATED',
      reason: expect.stringMatching(new RegExp(`^durable-mcp stuck workflow: ${cause} `)),
    },
    adminList: {
      status: 'failed',
      error: { code: -32603, message: expect.stringContaining('its workflow could not run'), cause },
    },
  };
}
