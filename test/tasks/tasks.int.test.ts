/**
 * Tasks (the Tasks extension, SEP-2663) on the real engine: a task is an exchange, so it survives
 * what an exchange survives. A task answered key by key through tasks/update keeps its first
 * answer across a worker restart and an API restart (each update to a different API process); a
 * task cancelled while it waits for input ends cancelled and its workflow closes; a task nobody
 * answers is ended by its TTL, its id unknown from then on and its records swept; a malformed
 * update is refused with its field's path and changes nothing.
 */
import { sweepExpiredRecords } from '../../lib/db/retention';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { accept, rawCall } from '../support/raw-mcp';
import { startApiProcess, type ApiProcess } from '../support/service-processes';
import { createdTaskId, TASK_CAPABILITIES, taskClient } from '../support/task-client';
import { startTestService, TEST_KEY_RINGS, type TestService } from '../support/test-service';
import { until } from '../support/until';

const exchangeOfTask = async (service: TestService, taskId: string) =>
  (
    await service.pool.query<{ exchange_id: string }>('SELECT exchange_id FROM exchange_tasks WHERE task_id = $1', [
      taskId,
    ])
  ).rows[0]!.exchange_id;

const workflowStatus = async (service: TestService, exchangeId: string) =>
  (await service.temporal.workflow.getHandle(workflowIdFor(exchangeId)).describe()).status.name;

const inputKeys = (task: Record<string, unknown>) => Object.keys((task.inputRequests as object | undefined) ?? {});

/**
 * The service of the enclosing describe block: started before its tests (with `env`, or what it
 * resolves to) and closed after them.
 */
function serviceFor(env: Record<string, string> | (() => Promise<Record<string, string>>)): TestService {
  let started: TestService | undefined;
  beforeAll(async () => {
    started = await startTestService(typeof env === 'function' ? await env() : env);
  });
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as TestService, { get: (_, key) => Reflect.get(started!, key) });
}

describe('a task', () => {
  const service = serviceFor({ HANDLER_SET: 'conformance' });

  it('survives a worker restart and an API restart between its tasks/update calls', async () => {
    const env = {
      DATABASE_URL: service.config.database.url,
      TEMPORAL_ADDRESS: service.config.temporal.address,
      TEMPORAL_TASK_QUEUE: service.config.temporal.taskQueue,
      HANDLER_SET: 'conformance',
      ...TEST_KEY_RINGS,
    };
    let api: ApiProcess = await startApiProcess(env);
    try {
      const client = taskClient(() => api.url);
      const taskId = createdTaskId(await client.call('multi_input'));
      const asked = await client.until(taskId, (task) => inputKeys(task).length === 2);
      expect(asked.status).toBe('input_required');

      expect((await client.update(taskId, { first_input: accept({ name: 'Ada' }) })).body.result).toMatchObject({
        resultType: 'complete',
      });
      await service.stopWorker();
      await api.kill('SIGTERM');
      api = await startApiProcess(env);
      await service.startWorker();

      // The other process reads the same task, with only the key still unanswered.
      const waiting = (await client.get(taskId)).body.result!;
      expect(waiting).toMatchObject({ status: 'input_required', taskId });
      expect(inputKeys(waiting)).toEqual(['second_input']);
      await client.update(taskId, { second_input: accept({ name: 'Grace' }) });
      const done = await client.until(taskId, (task) => task.status === 'completed');
      expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Both answered: Ada and Grace.' }] });
      // A local round's result is in Postgres (and so in tasks/get) before its workflow task
      // completes: the workflow is read once it has closed.
      const exchangeId = await exchangeOfTask(service, taskId);
      await until('the workflow to close', async () =>
        (await workflowStatus(service, exchangeId)) === 'RUNNING' ? undefined : true,
      );
      expect(await workflowStatus(service, exchangeId)).toBe('COMPLETED');
    } finally {
      await api.kill('SIGKILL');
    }
  });

  it('cancelled while it waits for input ends cancelled, and its workflow closes', async () => {
    const client = taskClient(() => service.url);
    const taskId = createdTaskId(await client.call('confirm_delete', { filename: 'keep.txt' }));
    await client.until(taskId, (task) => task.status === 'input_required');
    expect((await client.cancel(taskId)).body.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    const ended = await client.until(taskId, (task) => task.status === 'cancelled');
    expect(ended).not.toHaveProperty('result');
    const exchangeId = await exchangeOfTask(service, taskId);
    await until('the workflow to close', async () =>
      (await workflowStatus(service, exchangeId)) === 'RUNNING' ? undefined : true,
    );
    expect(await workflowStatus(service, exchangeId)).toBe('COMPLETED');
    // A cancel of an ended task, and an update of it, are acknowledged and change nothing.
    expect((await client.cancel(taskId)).body.result?.resultType).toBe('complete');
    expect((await client.update(taskId, { confirm_delete: accept({ confirm: true }) })).body.result?.resultType).toBe(
      'complete',
    );
    expect((await client.get(taskId)).body.result?.status).toBe('cancelled');
  });

  it('begins after its input when its tool says so: the ask over MRTR, the retry answered with the task', async () => {
    const first = await rawCall(
      service.url,
      'tools/call',
      { name: 'test_tool_with_task', arguments: {} },
      TASK_CAPABILITIES,
    );
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: expect.any(Object) },
    });
    const retry = await rawCall(
      service.url,
      'tools/call',
      {
        name: 'test_tool_with_task',
        arguments: {},
        requestState: first.body.result!.requestState,
        inputResponses: { user_name: accept({ name: 'Alice' }) },
      },
      TASK_CAPABILITIES,
    );
    const taskId = createdTaskId(retry);
    expect(retry.body.result).not.toHaveProperty('requestState');
    const client = taskClient(() => service.url);
    // The question answered over MRTR is not outstanding in the task.
    expect((await client.get(taskId)).body.result).toMatchObject({ status: 'working' });
    const done = await client.until(taskId, (task) => task.status === 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Alice! Your task is done.' }] });
  });

  it('refuses a malformed update with the path of its field, and changes nothing', async () => {
    const client = taskClient(() => service.url);
    const taskId = createdTaskId(await client.call('confirm_delete', { filename: 'a.txt' }));
    await client.until(taskId, (task) => task.status === 'input_required');
    const refused = await client.update(taskId, { confirm_delete: 'yes' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: -32602, data: { path: 'params.inputResponses.confirm_delete' } });
    expect(inputKeys((await client.get(taskId)).body.result!)).toEqual(['confirm_delete']);
    await client.cancel(taskId);
  });
});

describe('the TTL of a task', () => {
  const TTL_MS = 2_000;
  const service = serviceFor({ HANDLER_SET: 'conformance', TASK_TTL_MS: String(TTL_MS) });

  it('ends a task nobody answers: its workflow closes, its id is unknown, its records are swept', async () => {
    const client = taskClient(() => service.url);
    const created = await client.call('confirm_delete', { filename: 'abandoned.txt' });
    const taskId = createdTaskId(created);
    expect(created.body.result).toMatchObject({ ttlMs: TTL_MS });
    await client.until(taskId, (task) => task.status === 'input_required');
    const exchangeId = await exchangeOfTask(service, taskId);

    await until('the TTL to end the workflow', async () =>
      (await workflowStatus(service, exchangeId)) === 'RUNNING' ? undefined : true,
    );
    expect(await workflowStatus(service, exchangeId)).toBe('COMPLETED');
    const { rows } = await service.pool.query<{ status: string }>('SELECT status FROM exchanges WHERE id = $1', [
      exchangeId,
    ]);
    expect(rows[0]?.status).toBe('expired');
    // Ended by the TTL, not by the round timeout (ten minutes here).
    const ending = await service.pool.query<{ outcome: { error: { message: string } } }>(
      'SELECT outcome FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round DESC LIMIT 1',
      [exchangeId],
    );
    expect(ending.rows[0]?.outcome.error.message).toMatch(/TTL of 2000 ms/);
    const gone = await client.get(taskId);
    expect(gone.body.error).toMatchObject({ code: -32602 });
    expect((await client.update(taskId, { confirm_delete: accept({ confirm: true }) })).body.error?.code).toBe(-32602);

    await sweepExpiredRecords(service.pool, 7 * 86_400_000);
    const left = await service.pool.query('SELECT 1 FROM exchanges WHERE id = $1', [exchangeId]);
    expect(left.rowCount).toBe(0);
  });

  it('ends a task whose round still runs at its TTL, without waiting for the round', async () => {
    const client = taskClient(() => service.url);
    const taskId = createdTaskId(await client.call('slow_compute', { seconds: 60 }));
    const exchangeId = await exchangeOfTask(service, taskId);
    const started = Date.now();
    await until('the TTL to end the workflow', async () =>
      (await workflowStatus(service, exchangeId)) === 'RUNNING' ? undefined : true,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    const { rows } = await service.pool.query<{ status: string }>('SELECT status FROM exchanges WHERE id = $1', [
      exchangeId,
    ]);
    expect(rows[0]?.status).toBe('expired');
    expect((await client.get(taskId)).body.error?.code).toBe(-32602);
  });
});

describe('a task whose workflow Temporal closed without an ending', () => {
  const service = serviceFor({ HANDLER_SET: 'conformance', HTTP_WAIT_MS: '1000' });

  it('reads as failed once tasks/get has asked Temporal, and is not polled until its TTL', async () => {
    const client = taskClient(() => service.url);
    const taskId = createdTaskId(await client.call('confirm_delete', { filename: 'terminated.txt' }));
    await client.until(taskId, (task) => task.status === 'input_required');
    const exchangeId = await exchangeOfTask(service, taskId);
    await service.temporal.workflow.getHandle(workflowIdFor(exchangeId)).terminate('operator');
    const ended = await client.until(taskId, (task) => task.status === 'failed', 10_000);
    expect(ended.error).toMatchObject({ code: -32013, data: { workflowStatus: 'TERMINATED' } });
    expect((await client.cancel(taskId)).body.result?.resultType).toBe('complete');
  });
});

describe("the budget of a task round's answers", () => {
  const service = serviceFor({ HANDLER_SET: 'conformance', MAX_ROUND_INPUT_BYTES: '1024' });

  it('counts the answers taken before: an update that would put the round over it is refused with 413', async () => {
    const client = taskClient(() => service.url);
    const taskId = createdTaskId(await client.call('multi_input'));
    await client.until(taskId, (task) => inputKeys(task).length === 2);
    const name = 'x'.repeat(600);
    expect((await client.update(taskId, { first_input: accept({ name }) })).body.result?.resultType).toBe('complete');
    const refused = await client.update(taskId, { second_input: accept({ name }) });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({ code: -32602, data: { path: 'params.inputResponses', limit: 1024 } });
    // Nothing was taken: the key is still outstanding, and a smaller answer completes the round.
    expect(inputKeys((await client.get(taskId)).body.result!)).toEqual(['second_input']);
    await client.update(taskId, { second_input: accept({ name: 'Grace' }) });
    await client.until(taskId, (task) => task.status === 'completed');
  });

  it('holds under two updates at once: one takes its key, the other is refused with 413, never both', async () => {
    const client = taskClient(() => service.url);
    const name = 'x'.repeat(600); // each fits the 1024 bytes alone; the two together do not
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const taskId = createdTaskId(await client.call('multi_input'));
      await client.until(taskId, (task) => inputKeys(task).length === 2);
      const replies = await Promise.all([
        client.update(taskId, { first_input: accept({ name }) }),
        client.update(taskId, { second_input: accept({ name }) }),
      ]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 413]);
      // The one refused is still outstanding: exactly one key was taken.
      expect(inputKeys((await client.get(taskId)).body.result!)).toHaveLength(1);
      await client.cancel(taskId);
    }
  });
});

describe('the budget of running tasks', () => {
  let running: number;
  const service = serviceFor(async () => {
    // The budget is the deployment's, and other tests' exchanges may still run in this database.
    const probe = await startTestService();
    const { rows } = await probe.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM exchanges WHERE status = 'running'",
    );
    await probe.close();
    running = Number(rows[0]!.n);
    return { HANDLER_SET: 'conformance', MAX_RUNNING_EXCHANGES: String(running + 1) };
  });

  it('is the running exchanges budget: a task over it is refused with 429 and Retry-After, and nothing is written', async () => {
    const client = taskClient(() => service.url);
    const first = createdTaskId(await client.call('slow_compute', { seconds: 60 }));
    const taskRows = async () => (await service.pool.query('SELECT 1 FROM exchange_tasks')).rowCount;
    const before = await taskRows();
    const refused = await client.call('slow_compute', { seconds: 60 });
    expect(refused.status).toBe(429);
    expect(refused.headers?.get('retry-after')).toBe('5');
    expect(refused.body.error).toMatchObject({ code: -32000, data: { limit: running + 1 } });
    expect(await taskRows()).toBe(before);
    await client.cancel(first);
    await client.until(first, (task) => task.status === 'cancelled');
    const next = createdTaskId(await client.call('slow_compute', { seconds: 0 }));
    await client.until(next, (task) => task.status === 'completed');
  });
});

describe('the demo approval (request_access)', () => {
  const service = serviceFor({ HANDLER_SET: 'demo' });

  it('is a task whose two approvers answer with tasks/update one at a time', async () => {
    const client = taskClient(() => service.url);
    const taskId = createdTaskId(await client.call('request_access', { service: 'billing', reason: 'incident 42' }));
    const asked = await client.until(taskId, (task) => task.status === 'input_required');
    expect(inputKeys(asked)).toEqual(['owner_approval', 'security_approval']);
    await client.update(taskId, { security_approval: accept({ approve: true, note: 'ok' }) });
    expect(inputKeys((await client.get(taskId)).body.result!)).toEqual(['owner_approval']);
    await client.update(taskId, { owner_approval: accept({ approve: true }) });
    const done = await client.until(taskId, (task) => task.status === 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Access to billing granted for 4 h.' }] });
  });

  it('asks over MRTR a client that did not declare the extension', async () => {
    const reply = await rawCall(service.url, 'tools/call', {
      name: 'request_access',
      arguments: { service: 'billing', reason: 'incident 43' },
    });
    expect(reply.body.result).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    expect(Object.keys(reply.body.result!.inputRequests as object)).toEqual(['owner_approval', 'security_approval']);
  });
});
