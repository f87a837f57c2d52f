/**
 * docker-compose.yml, run for real: Postgres with compose's initdb scripts, compose's schema job,
 * the Temporal server at compose's version (built from its Go module) with SQL visibility on
 * Postgres, compose's namespace job, and the API and worker from dist/ with compose's
 * environment, each as compose starts it (scripts/compose-native). Against it: both conformance
 * requirement sets, an exchange of each era and a task with the official clients and over the
 * wire, and the faults only this topology has: several history shards, the Postgres that holds
 * Temporal's own data crashing while exchanges wait, and the Temporal server crashing.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { Pool } from 'pg';
import { runConformance } from '../../conformance/run-conformance';
import { connectElicitingLegacyClient } from '../support/eliciting-legacy-client';
import { connectModernClient } from '../support/modern-client';
import { accept } from '../support/raw-mcp';
import { createdTaskId, taskClient } from '../support/task-client';
import { until } from '../support/until';
import {
  newTrace,
  pollPastStateOnly,
  sendLeg,
  startCall,
  type ApiChoice,
  type Ask,
} from '../faults/support/modern-exchange';
import { EXCHANGE_STATUS } from '../../lib/exchange/search-attributes';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { buildDist, startTestTopology, type TestTopology } from './native-topology';

const ELICIT = { name: 'test_input_required_result_elicitation', arguments: {} };
const hello = (name: string) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] });

let stack: TestTopology;
let temporal: Client;
let connection: Connection;
let db: Pool;

beforeAll(async () => {
  buildDist();
  stack = await startTestTopology();
  connection = await Connection.connect({ address: stack.temporalAddress });
  temporal = new Client({ connection, namespace: 'default' });
  db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
  db.on('error', () => {}); // an idle connection lost when Postgres is killed on purpose; the next query reconnects
}, 600_000);

afterAll(async () => {
  await db?.end();
  await connection?.close();
  await stack?.close();
});

describe('the compose topology', () => {
  it('runs every service compose has but the Web UI, each on an address of its own', () => {
    expect(Object.keys(stack.topology.notRun)).toEqual(['temporal-ui']);
    for (const name of ['postgresql', 'temporal', 'api', 'worker'])
      expect(stack.topology.process(name)?.exited()).toBeUndefined();
  });

  it('has the history shards compose gives the server, and its visibility on Postgres', async () => {
    const info = await connection.workflowService.getSystemInfo({});
    expect(info.serverVersion).toBe('1.32.0');
    const cluster = await connection.operatorService.listClusters({});
    expect(cluster.clusters?.[0]?.historyShardCount).toBe(4);
  });
});

describe('official conformance suite on the compose topology', () => {
  it.each(['2026-07-28', '2025-11-25'])('passes the %s requirement set', async (requirements) => {
    const outputDir = mkdtempSync(path.join(os.tmpdir(), `native-conformance-${requirements}-`));
    const run = await runConformance(stack.url, requirements, outputDir);
    if (run.exitCode !== 0) process.stdout.write(`${run.output}\nper-check results: ${outputDir}\n`);
    expect(run.exitCode).toBe(0);
  });
});

describe('end to end on the compose topology', () => {
  it('a 2026-07-28 exchange with the official 2.x client', async () => {
    const client = await connectModernClient(stack.url, () => ({ action: 'accept', content: { name: 'Ada' } }));
    try {
      expect(await client.callTool(ELICIT)).toMatchObject(hello('Ada'));
    } finally {
      await client.close();
    }
  });

  it('a legacy exchange with the official 1.x client, asked on its session', async () => {
    const legacy = await connectElicitingLegacyClient(stack.url, { action: 'accept', content: { name: 'Grace' } });
    try {
      expect(await legacy.client.callTool(ELICIT)).toMatchObject(hello('Grace'));
      expect(legacy.asked).toEqual(['What is your name?']);
    } finally {
      await legacy.client.close();
    }
  });

  it('a task answered with tasks/update', async () => {
    const client = taskClient(() => stack.url);
    const taskId = createdTaskId(await client.call('confirm_delete', { filename: 'old.txt' }));
    await client.until(taskId, (task) => task.status === 'input_required');
    await client.update(taskId, { confirm_delete: accept({ confirm: true }) });
    const done = await client.until(taskId, (task) => task.status === 'completed', 60_000);
    expect(JSON.stringify(done)).toContain('Deleted old.txt.');
  });
});

describe('faults only the compose topology has', () => {
  const apis: ApiChoice = { urls: () => [stack.url] };
  const keyRing = () => stack.variables.REQUEST_STATE_KEYS!;

  const startAll = (count: number) =>
    Promise.all(Array.from({ length: count }, () => startCall(apis, ELICIT, newTrace(), keyRing())));

  async function answerAll(asks: Ask[], prefix: string): Promise<void> {
    const replies = await Promise.all(
      asks.map(async (ask, i) => {
        const params = {
          ...ELICIT,
          requestState: ask.requestState,
          inputResponses: { user_name: accept({ name: `${prefix}-${i}` }) },
        };
        const trace = newTrace();
        return pollPastStateOnly(apis, params, await sendLeg(apis, params, trace), trace, 120_000);
      }),
    );
    replies.forEach((reply, i) => expect(reply.body.result).toMatchObject(hello(`${prefix}-${i}`)));
    // Postgres, the search attributes and the clients agree: each exchange recorded completed once.
    const ids = asks.map((ask) => ask.exchangeId);
    const { rows } = await db.query<{ id: string; status: string }>(
      'SELECT id, status FROM exchanges WHERE id = ANY($1::uuid[])',
      [ids],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual(
      Object.fromEntries(ids.map((id) => [id, 'completed'])),
    );
    // A local round's result reaches its client before the workflow task that ran it completes,
    // and SQL visibility follows that: each workflow closes, with its status, a moment later.
    for (const id of ids) {
      const closed = await until(`exchange ${id}'s workflow to close with its status`, async () => {
        const description = await temporal.workflow.getHandle(workflowIdFor(id)).describe();
        const view = {
          status: description.status.name,
          exchangeStatus: description.typedSearchAttributes.get(EXCHANGE_STATUS),
        };
        return view.status === 'RUNNING' || view.exchangeStatus === undefined ? undefined : view;
      });
      expect(closed).toEqual({ status: 'COMPLETED', exchangeStatus: 'completed' });
    }
  }

  it('16 exchanges at once over 4 history shards all complete', async () => {
    const asks = await startAll(16);
    await answerAll(asks, 'shards');
  });

  it('the Postgres under Temporal crashes (SIGKILL) while exchanges wait: restarted, all complete', async () => {
    const asks = await startAll(6);
    await stack.topology.stop('postgresql', { signal: 'SIGKILL', graceMs: 1_000 });
    await stack.topology.start('postgresql');
    await answerAll(asks, 'pg-crash');
  });

  it('the Temporal server crashes (SIGKILL) while exchanges wait: restarted, all complete', async () => {
    const asks = await startAll(6);
    await stack.topology.stop('temporal', { signal: 'SIGKILL', graceMs: 1_000 });
    await stack.topology.start('temporal');
    await answerAll(asks, 'temporal-crash');
  });
});
