/**
 * Tasks for legacy clients on the 2025-11-25 wire, served by the same exchanges as the
 * 2026-07-28 Tasks extension: a 2025-11-25 session is offered the `tasks` capability and each
 * tool's taskSupport; a tools/call with `params.task` is answered with its CreateTaskResult at
 * once and is readable by tasks/get (from another API replica too); the task's requests reach the
 * client on its tasks/result stream with the related-task `_meta`, and the tasks/result ends with
 * the call's result. End to end with the official 1.x client (`@modelcontextprotocol/sdk`
 * `experimental.tasks`), message by message with the bare client for what the official one hides.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, McpError, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { RELATED_TASK_META_KEY } from '../../lib/protocol/legacy-tasks';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { isRequest, isResponseTo, LegacySession, type JsonRpcMessage } from '../support/legacy-client';
import { accept } from '../support/raw-mcp';
import { startApiProcess, type ApiProcess } from '../support/service-processes';
import { startTestService, TEST_KEY_RINGS, type TestService } from '../support/test-service';
import { until } from '../support/until';

const REQUEST_OPTIONS = { timeout: 30_000 };

let service: TestService;
let replica: ApiProcess;
beforeAll(async () => {
  service = await startTestService({ HANDLER_SET: 'conformance', TASK_POLL_INTERVAL_MS: '100' });
  replica = await startApiProcess({
    DATABASE_URL: service.config.database.url,
    TEMPORAL_ADDRESS: service.config.temporal.address,
    TEMPORAL_TASK_QUEUE: service.config.temporal.taskQueue,
    HANDLER_SET: 'conformance',
    TASK_POLL_INTERVAL_MS: '100',
    ...TEST_KEY_RINGS,
  });
});
afterAll(async () => {
  await replica?.kill('SIGKILL');
  await service?.close();
});

/** The official 1.x client, declaring elicitation and answering each question with `answer`. */
async function officialClient(
  url: string,
  answer: (params: ElicitRequest['params']) => Record<string, unknown> | Promise<Record<string, unknown>>,
) {
  const client = new Client(
    { name: 'durable-mcp-task-tests', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  const asked: Array<ElicitRequest['params']> = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return (await answer(request.params)) as never;
  });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport, asked };
}

/** Another connection to an existing session (the SDK skips initialize when it is given a session id). */
async function reconnected(url: string, sessionId: string) {
  const client = new Client({ name: 'durable-mcp-task-tests', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { sessionId }));
  return client;
}

const workflowStatus = async (exchangeId: string) =>
  (await service.temporal.workflow.getHandle(workflowIdFor(exchangeId)).describe()).status.name;

const exchangeOfTask = async (taskId: string) =>
  (
    await service.pool.query<{ exchange_id: string }>('SELECT exchange_id FROM exchange_tasks WHERE task_id = $1', [
      taskId,
    ])
  ).rows[0]!.exchange_id;

/** A bare 2025-11-25 session's task call: its CreateTaskResult's task. */
async function startTask(session: LegacySession, name: string, args: Record<string, unknown> = {}, task = {}) {
  const reply = await session.call('tools/call', { name, arguments: args, task });
  if (!reply.result?.task) throw new Error(`expected a CreateTaskResult, got ${JSON.stringify(reply)}`);
  return reply.result.task as Record<string, unknown> & { taskId: string };
}

const taskGet = async (session: LegacySession, taskId: string, url?: string) =>
  session.call('tasks/get', { taskId }, url ? { url } : {});

const untilStatus = (session: LegacySession, taskId: string, status: string) =>
  until(`task status ${status}`, async () => {
    const reply = await taskGet(session, taskId);
    return reply.result?.status === status ? reply.result : undefined;
  });

describe('what a session is offered', () => {
  it('on 2025-11-25: the tasks capability (list, cancel, tools/call) and each tool’s taskSupport', async () => {
    const session = await LegacySession.open(service.url);
    try {
      expect(session.initializeResult.capabilities).toMatchObject({
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      });
      const tools = (await session.call('tools/list')).result!.tools as Array<Record<string, unknown>>;
      const support = (name: string) =>
        (tools.find((tool) => tool.name === name)?.execution as { taskSupport?: string } | undefined)?.taskSupport;
      expect(support('confirm_delete')).toBe('optional');
      expect(support('failing_job')).toBe('required');
      expect(support('greet')).toBeUndefined();
    } finally {
      await session.close();
    }
  });

  it('on older revisions: neither, and params.task means nothing (the call runs as it always did)', async () => {
    const session = await LegacySession.open(service.url, {
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: {} },
    });
    try {
      expect(session.initializeResult.capabilities).not.toHaveProperty('tasks');
      const tools = (await session.call('tools/list')).result!.tools as Array<Record<string, unknown>>;
      expect(tools.some((tool) => tool.execution !== undefined)).toBe(false);
      const { stream } = await session.request('tools/call', {
        name: 'confirm_delete',
        arguments: { filename: 'old.txt' },
        task: {},
      });
      const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'the question');
      expect(ask.message.params?._meta).toBeUndefined();
      stream.close();
      for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list'])
        expect((await session.call(method, { taskId: 'any' })).error?.code).toBe(-32601);
    } finally {
      await session.close();
    }
  });
});

describe('a task of the official 1.x client', () => {
  it('asks once through its elicitation handler, on tasks/result, and ends with the result; tasks/get reads it from another replica', async () => {
    const { client, transport, asked } = await officialClient(service.url, () => accept({ confirm: true }));
    try {
      await client.listTools(); // the client learns which tools take a task
      const messages = [];
      for await (const message of client.experimental.tasks.callToolStream(
        { name: 'confirm_delete', arguments: { filename: 'report.txt' } },
        undefined,
        REQUEST_OPTIONS,
      ))
        messages.push(message);
      const created = messages.find((m) => m.type === 'taskCreated');
      expect(created).toBeDefined();
      const taskId = (created as { task: { taskId: string } }).task.taskId;
      const final = messages.at(-1)!;
      expect(final).toMatchObject({
        type: 'result',
        result: {
          content: [{ type: 'text', text: 'Deleted report.txt.' }],
          _meta: { [RELATED_TASK_META_KEY]: { taskId } },
        },
      });
      // The client was asked once, the request naming its task.
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({
        message: 'Delete report.txt?',
        _meta: { [RELATED_TASK_META_KEY]: { taskId } },
      });

      // Another connection to the same session, on another API replica, reads the same task.
      const other = await reconnected(replica.url, transport.sessionId!);
      try {
        const task = await other.experimental.tasks.getTask(taskId, REQUEST_OPTIONS);
        expect(task).toMatchObject({ taskId, status: 'completed', ttl: service.config.exchange.taskTtlMs });
        expect(await workflowStatus(await exchangeOfTask(taskId))).toBe('COMPLETED');
      } finally {
        await other.close();
      }
    } finally {
      await client.close();
    }
  });

  it('cancelled while it waits for input: cancelTask answers cancelled, the question is withdrawn, the stream ends, the workflow closes', async () => {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { client, asked } = await officialClient(service.url, async () => {
      await held; // the human never answers
      return accept({ confirm: true });
    });
    try {
      await client.listTools();
      const messages: Array<{ type: string }> = [];
      const consuming = (async () => {
        for await (const message of client.experimental.tasks.callToolStream(
          { name: 'confirm_delete', arguments: { filename: 'keep.txt' } },
          undefined,
          REQUEST_OPTIONS,
        ))
          messages.push(message);
      })();
      await until('the question', async () => (asked.length ? true : undefined));
      const taskId = (asked[0]!._meta![RELATED_TASK_META_KEY] as { taskId: string }).taskId;

      const cancelled = await client.experimental.tasks.cancelTask(taskId, REQUEST_OPTIONS);
      expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
      await consuming;
      expect(messages.at(-1)).toMatchObject({ type: 'error' });
      const exchangeId = await exchangeOfTask(taskId);
      await until('the workflow to close', async () =>
        (await workflowStatus(exchangeId)) === 'RUNNING' ? undefined : true,
      );
      expect((await client.experimental.tasks.getTask(taskId, REQUEST_OPTIONS)).status).toBe('cancelled');
      const { rows } = await service.pool.query<{ status: string }>(
        'SELECT status FROM legacy_open_requests WHERE exchange_id = $1',
        [exchangeId],
      );
      expect(rows).toEqual([{ status: 'withdrawn' }]);
    } finally {
      release();
      await client.close();
    }
  });

  it("is refused like an unknown id from another session's client", async () => {
    const owner = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
    const { client } = await officialClient(service.url, () => accept({ confirm: false }));
    try {
      const { taskId } = await startTask(owner, 'confirm_delete', { filename: 'mine.txt' });
      const refusals = await Promise.all(
        [
          () => client.experimental.tasks.getTask(taskId, REQUEST_OPTIONS),
          () => client.experimental.tasks.cancelTask(taskId, REQUEST_OPTIONS),
          () => client.experimental.tasks.getTaskResult(taskId, undefined, REQUEST_OPTIONS),
          () => client.experimental.tasks.getTask('an-id-nobody-was-given', REQUEST_OPTIONS),
        ].map((send) =>
          send().then(
            () => undefined,
            (error: unknown) => error,
          ),
        ),
      );
      for (const refusal of refusals) {
        expect(refusal).toBeInstanceOf(McpError);
        expect((refusal as McpError).code).toBe(-32602);
        expect((refusal as McpError).message).toBe((refusals[3] as McpError).message);
      }
      // Untouched: it still waits for its own session's answer.
      expect((await untilStatus(owner, taskId, 'input_required')).taskId).toBe(taskId);
    } finally {
      await client.close();
      await owner.close();
    }
  });
});

describe('a task, message by message', () => {
  let session: LegacySession;
  beforeEach(async () => {
    session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
  });
  afterEach(async () => {
    await session.close();
  });

  it('is readable by tasks/get on another replica the instant its CreateTaskResult arrives', async () => {
    const task = await startTask(session, 'confirm_delete', { filename: 'now.txt' });
    expect(task).toMatchObject({ status: 'working', ttl: service.config.exchange.taskTtlMs, pollInterval: 100 });
    const read = await taskGet(session, task.taskId, replica.url);
    expect(read.result).toMatchObject({ taskId: task.taskId, createdAt: task.createdAt });
    expect(['working', 'input_required']).toContain(read.result!.status);
    expect(read.result).not.toHaveProperty(['_meta', RELATED_TASK_META_KEY]);
  });

  it('streams its question on tasks/result; the answer, POSTed to another replica, ends it with the result under that request’s id', async () => {
    const { taskId } = await startTask(session, 'confirm_delete', { filename: 'a.txt' });
    await untilStatus(session, taskId, 'input_required');
    const { id, stream } = await session.request('tasks/result', { taskId });
    const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'the question');
    expect(ask.message.params?._meta).toEqual({ [RELATED_TASK_META_KEY]: { taskId } });
    expect(await session.respond(ask.message.id!, accept({ confirm: true }), { url: replica.url })).toBe(202);
    const done = await stream.until((m) => isResponseTo(m, id), 'the result');
    expect(done.message.result).toMatchObject({
      content: [{ type: 'text', text: 'Deleted a.txt.' }],
      _meta: { [RELATED_TASK_META_KEY]: { taskId } },
    });
    expect((await taskGet(session, taskId)).result?.status).toBe('completed');
    // tasks/result of an ended task answers at once, the same result.
    const again = await session.call('tasks/result', { taskId });
    expect(again.result).toEqual(done.message.result);
  });

  it('takes its answer while no worker runs, and ends with the result once one does', async () => {
    const { taskId } = await startTask(session, 'confirm_delete', { filename: 'later.txt' });
    await untilStatus(session, taskId, 'input_required');
    const { id, stream } = await session.request('tasks/result', { taskId });
    const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'the question');
    await service.stopWorker();
    try {
      expect(await session.respond(ask.message.id!, accept({ confirm: true }))).toBe(202);
      // Answered: no longer waiting for input, though nothing runs the next round yet.
      expect((await taskGet(session, taskId)).result?.status).toBe('working');
    } finally {
      await service.startWorker();
    }
    const done = await stream.until((m) => isResponseTo(m, id), 'the result', 30_000);
    expect(done.message.result).toMatchObject({ content: [{ type: 'text', text: 'Deleted later.txt.' }] });
  });

  it("lists the session's own tasks, page after page by cursor; a cursor that cannot be one is -32602", async () => {
    const first = await startTask(session, 'confirm_delete', { filename: 'one.txt' });
    const second = await startTask(session, 'slow_compute', { seconds: 0 });
    const stranger = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
    try {
      await startTask(stranger, 'slow_compute', { seconds: 0 });
      const listed = (await session.call('tasks/list')).result!;
      const ids = (listed.tasks as Array<{ taskId: string }>).map((task) => task.taskId);
      expect([...ids].sort()).toEqual([first.taskId, second.taskId].sort());
      expect(listed).not.toHaveProperty('nextCursor');
      // The cursor is a position: after the first id listed (in the server's id order) only the other is left.
      const [lower, higher] = ids;
      const rest = (await session.call('tasks/list', { cursor: lower })).result!.tasks as Array<{ taskId: string }>;
      expect(rest.map((task) => task.taskId)).toEqual([higher]);
      expect((await session.call('tasks/list', { cursor: 'not a cursor!' })).error).toMatchObject({
        code: -32602,
        data: { path: 'params.cursor' },
      });
      const theirs = (await stranger.call('tasks/list')).result!.tasks as Array<{ taskId: string }>;
      expect(theirs.map((task) => task.taskId)).not.toContain(first.taskId);
      expect(theirs).toHaveLength(1);
    } finally {
      await stranger.close();
    }
  });

  it('answers a repeated tools/call request id with the same task', async () => {
    const id = session.newId();
    const params = { name: 'confirm_delete', arguments: { filename: 'twice.txt' }, task: {} };
    const { stream: one } = await session.request('tools/call', params, { id });
    const { stream: two } = await session.request('tools/call', params, { id });
    const [a, b] = [(await one.drain()).at(-1)!.message, (await two.drain()).at(-1)!.message];
    expect(a.result?.task).toBeDefined();
    expect((b.result?.task as { taskId: string }).taskId).toBe((a.result?.task as { taskId: string }).taskId);
  });

  it('reports a tool error as failed, and tasks/result still returns the result', async () => {
    const { taskId } = await startTask(session, 'failing_job');
    const failed = await untilStatus(session, taskId, 'failed');
    expect(failed.statusMessage).toEqual(expect.any(String));
    const result = await session.call('tasks/result', { taskId });
    expect(result.result).toMatchObject({ isError: true, _meta: { [RELATED_TASK_META_KEY]: { taskId } } });
  });

  it('refuses a task on a tool that forbids one, and none on a tool that requires one, with -32601', async () => {
    const forbidden = await session.call('tools/call', { name: 'greet', arguments: {}, task: {} });
    expect(forbidden.error).toMatchObject({ code: -32601, data: { path: 'params.task', taskSupport: 'forbidden' } });
    const required = await session.call('tools/call', { name: 'failing_job', arguments: {} });
    expect(required.error).toMatchObject({ code: -32601, data: { path: 'params.task', taskSupport: 'required' } });
    const malformed = await session.call('tools/call', {
      name: 'confirm_delete',
      arguments: {},
      task: { ttl: 'soon' },
    });
    expect(malformed.error).toMatchObject({ code: -32602, data: { path: 'params.task.ttl' } });
    const { rows } = await service.pool.query(`SELECT 1 FROM legacy_calls WHERE session_id = $1`, [session.sessionId]);
    expect(rows).toHaveLength(0);
  });

  it('cancelled while it waits for input: the answer is the cancelled task, the question withdrawn, the workflow closed', async () => {
    const { taskId } = await startTask(session, 'confirm_delete', { filename: 'keep.txt' });
    await untilStatus(session, taskId, 'input_required');
    const { id, stream } = await session.request('tasks/result', { taskId });
    const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'the question');

    const cancelled = await session.call('tasks/cancel', { taskId });
    expect(cancelled.result).toMatchObject({ taskId, status: 'cancelled' });
    const withdrawal = await stream.until(
      (m: JsonRpcMessage) => m.method === 'notifications/cancelled' && m.params?.requestId === ask.message.id,
      'the withdrawal',
    );
    expect(withdrawal).toBeDefined();
    const ended = await stream.until((m) => isResponseTo(m, id), 'the end of tasks/result');
    expect(ended.message.error).toMatchObject({ code: expect.any(Number) });
    expect((await taskGet(session, taskId)).result?.status).toBe('cancelled');
    const exchangeId = await exchangeOfTask(taskId);
    await until('the workflow to close', async () =>
      (await workflowStatus(exchangeId)) === 'RUNNING' ? undefined : true,
    );
    // A terminal task is not cancelled again: -32602.
    const again = await session.call('tasks/cancel', { taskId });
    expect(again.error).toMatchObject({ code: -32602, data: { path: 'params.taskId' } });
  });

  it('lives as long as the TTL it asked for (never longer than TASK_TTL_MS): then it ends and its id is unknown', async () => {
    const task = await startTask(session, 'confirm_delete', { filename: 'ttl.txt' }, { ttl: 1500 });
    expect(task.ttl).toBe(1500);
    const exchangeId = await exchangeOfTask(task.taskId);
    await until('the TTL to end the workflow', async () =>
      (await workflowStatus(exchangeId)) === 'RUNNING' ? undefined : true,
    );
    const gone = await taskGet(session, task.taskId);
    expect(gone.error).toMatchObject({ code: -32602 });
    const long = await startTask(session, 'confirm_delete', {}, { ttl: 10 * service.config.exchange.taskTtlMs });
    expect(long.ttl).toBe(service.config.exchange.taskTtlMs);
  });
});
