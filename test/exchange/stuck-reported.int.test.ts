/**
 * Temporal's own report of a workflow whose tasks keep failing, as the stuck workflow sweep reads
 * it (workflow-task-probe.ts `reported`): a real dev server marks an exchange's workflow whose
 * every task fails (TemporalReportedProblems) after a few failures in a row, and the sweep's
 * visibility query finds it on its task queue, and only there.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createWorkflowTaskProbe } from '../../lib/exchange-client/workflow-task-probe';
import { WORKFLOW_TYPE, workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { readStackInfo } from '../support/stack-info';
import { until } from '../support/until';

it('finds the exchange whose workflow tasks keep failing, on its own task queue only', async () => {
  const { temporalAddress } = readStackInfo();
  const taskQueue = `stuck-reported-${randomUUID()}`;
  const exchangeId = randomUUID();
  const workerConnection = await NativeConnection.connect({ address: temporalAddress });
  const connection = await Connection.connect({ address: temporalAddress });
  const worker = await Worker.create({
    connection: workerConnection,
    taskQueue,
    workflowsPath: path.join(__dirname, '../fixtures/failing-workflow/workflows.ts'),
  });
  const running = worker.run();
  try {
    const client = new Client({ connection });
    const handle = await client.workflow.start(WORKFLOW_TYPE, { taskQueue, workflowId: workflowIdFor(exchangeId) });
    const probe = createWorkflowTaskProbe(client, taskQueue);
    const found = await until(
      'Temporal to report the failing workflow tasks',
      async () => {
        const reported = await probe.reported(10);
        return reported.length > 0 ? reported : undefined;
      },
      90_000,
    );
    expect(found).toEqual([exchangeId]);
    expect(await probe.inspect(exchangeId)).toMatchObject({ state: 'failing', cause: 'workflow-task-failed' });
    expect(await createWorkflowTaskProbe(client, `${taskQueue}-other`).reported(10)).toEqual([]);
    await handle.terminate('test over');
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await workerConnection.close();
  }
}, 120_000);
