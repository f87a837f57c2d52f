/**
 * A retried answer reaches the workflow again when the workflow says it lacks it, and only then.
 *
 * The workflow lacks answers Temporal recorded when an operator resets it to a point before them
 * without reapplying signals (`temporal workflow reset --reapply-type None`, or the Web UI's reset
 * without "reapply signals"): its new run waits for answers the API already signalled. A client
 * that retries the same answers (a 2026-07-28 leg that comes back with its inputResponses, a
 * tasks/update of a key already recorded as answered) gets them delivered again, the workflow being
 * the authority on what it holds (the answerStanding query). Real Temporal, Postgres and HTTP.
 */
import { randomUUID } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { apiRegistry } from '../../lib/metrics/api-metrics';
import { progressQuery } from '../../lib/exchange-client/workflow-messages';
import { parsePrometheusText, valueOf } from '../support/prometheus-text';
import { accept, isComeBack, rawCall, type RpcReply } from '../support/raw-mcp';
import { isRequest, isResponseTo, LegacySession } from '../support/legacy-client';
import { createdTaskId, taskClient } from '../support/task-client';
import { startTestService, type TestService } from '../support/test-service';

const GREET = { name: 'greet', arguments: {} };
const EventType = temporal.api.enums.v1.EventType;
type EventId = NonNullable<temporal.api.history.v1.IHistoryEvent['eventId']>;

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ HTTP_WAIT_MS: '1000', MAX_REPEATED_ANSWERS: '1' });
}, 120_000);
afterAll(() => service?.close());

const workflowIdOf = async (exchangeId: string) =>
  (await service.pool.query<{ workflow_id: string }>('SELECT workflow_id FROM exchanges WHERE id = $1', [exchangeId]))
    .rows[0]!.workflow_id;

async function newestExchange(target: string): Promise<string> {
  const { rows } = await service.pool.query<{ id: string }>(
    'SELECT id FROM exchanges WHERE target = $1 ORDER BY created_at DESC LIMIT 1',
    [target],
  );
  return rows[0]!.id;
}

async function historyOf(workflowId: string) {
  return service.temporal.workflow.getHandle(workflowId).fetchHistory();
}

/**
 * Signals named `name` in the history of the workflow's current run. A signal that arrives while a
 * workflow task runs is written to the history when that task completes; a query is answered only
 * after it has, so one is asked first, unless no worker runs (nothing runs a workflow task then,
 * and nothing would answer the query).
 */
async function signalsIn(workflowId: string, name: string, workerRuns = true): Promise<number> {
  if (workerRuns) await service.temporal.workflow.getHandle(workflowId).query(progressQuery);
  const { events } = await historyOf(workflowId);
  return (events ?? []).filter(
    (e) =>
      e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED &&
      e.workflowExecutionSignaledEventAttributes?.signalName === name,
  ).length;
}

/**
 * The workflow task that started the wait for answers (the round's deadline timer): a point to
 * reset the workflow to, before whatever answers it. A local round's ask is visible before that
 * task completes, so the history is read until it has.
 */
async function taskThatBeganTheWait(workflowId: string): Promise<EventId> {
  for (const deadline = Date.now() + 10_000; ;) {
    const { events } = await historyOf(workflowId);
    const timer = (events ?? []).find((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED);
    const completedId = timer?.timerStartedEventAttributes?.workflowTaskCompletedEventId;
    if (completedId) return completedId;
    if (Date.now() > deadline) throw new Error(`${workflowId} never began waiting for answers`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resets the workflow to `eventId` as an operator can, reapplying no signal recorded after it. */
async function resetWithoutSignals(workflowId: string, eventId: EventId): Promise<void> {
  await service.temporal.workflowService.resetWorkflowExecution({
    namespace: service.config.temporal.namespace,
    workflowExecution: { workflowId },
    reason: 'test: a reset that drops the answers signalled after it',
    workflowTaskFinishEventId: eventId,
    requestId: randomUUID(),
    resetReapplyType: temporal.api.enums.v1.ResetReapplyType.RESET_REAPPLY_TYPE_NONE,
  });
}

/** The API's count of answers it signalled again (its registry is this process's: the service runs here). */
const redelivered = async (era: 'modern' | 'legacy') =>
  valueOf(parsePrometheusText(await apiRegistry.metrics()), 'mcp_answers_redelivered_total', { era });

/** Comes back with each state-only result's requestState and the same params, until something else. */
async function comeBackUntilAnswered(params: Record<string, unknown>, first: RpcReply, maxLegs = 20) {
  let reply = first;
  for (let legs = 0; isComeBack(reply) && legs < maxLegs; legs += 1)
    reply = await rawCall(service.url, 'tools/call', { ...params, requestState: reply.body.result!.requestState });
  return reply;
}

describe('a 2026-07-28 client that comes back with the answers it sent', () => {
  it('gets them delivered again when the workflow lost them to a reset, and the exchange completes with them', async () => {
    const ask = await rawCall(service.url, 'tools/call', GREET);
    const exchangeId = await newestExchange('greet');
    const workflowId = await workflowIdOf(exchangeId);
    const beforeTheAnswers = await taskThatBeganTheWait(workflowId);

    await service.stopWorker();
    const answering = { ...GREET, inputResponses: { name: accept({ name: 'Reset' }) } };
    let reply: RpcReply;
    try {
      reply = await rawCall(service.url, 'tools/call', { ...answering, requestState: ask.body.result!.requestState });
      expect(isComeBack(reply)).toBe(true);
      expect(await signalsIn(workflowId, 'answers', false)).toBe(1);
      await resetWithoutSignals(workflowId, beforeTheAnswers);
      expect(await signalsIn(workflowId, 'answers', false)).toBe(0);
    } finally {
      await service.startWorker();
    }

    const before = await redelivered('modern');
    reply = await comeBackUntilAnswered(answering, reply);
    expect(reply.body).toMatchObject({ result: { content: [{ type: 'text', text: 'Hello, Reset!' }] } });
    expect(await signalsIn(workflowId, 'answers')).toBe(1);
    expect(await redelivered('modern')).toBe(before + 1);
  }, 60_000);

  it('does not signal them again while the workflow has them', async () => {
    const ask = await rawCall(service.url, 'tools/call', GREET);
    const workflowId = await workflowIdOf(await newestExchange('greet'));
    const answering = { ...GREET, inputResponses: { name: accept({ name: 'Once' }) } };
    await service.stopWorker();
    let reply: RpcReply;
    try {
      // No worker: the workflow cannot be asked, and the answers in its history are left to it.
      reply = await rawCall(service.url, 'tools/call', { ...answering, requestState: ask.body.result!.requestState });
      for (let legs = 0; legs < 2; legs += 1) {
        expect(isComeBack(reply)).toBe(true);
        reply = await rawCall(service.url, 'tools/call', {
          ...answering,
          requestState: reply.body.result!.requestState,
        });
      }
    } finally {
      await service.startWorker();
    }
    reply = await comeBackUntilAnswered(answering, reply);
    expect(reply.body).toMatchObject({ result: { content: [{ type: 'text', text: 'Hello, Once!' }] } });
    expect(await signalsIn(workflowId, 'answers')).toBe(1);
  }, 60_000);
});

describe('a task whose client sends an answered key again', () => {
  const approve = accept({ approve: true });
  const ARGS = { service: 'billing', reason: 'incident 42' };

  async function taskExchange(taskId: string): Promise<string> {
    const { rows } = await service.pool.query<{ exchange_id: string }>(
      'SELECT exchange_id FROM exchange_tasks WHERE task_id = $1',
      [taskId],
    );
    return rows[0]!.exchange_id;
  }

  it('gets it delivered again when the workflow lost it to a reset, and the task completes', async () => {
    const tasks = taskClient(() => service.url);
    const taskId = createdTaskId(await tasks.call('request_access', ARGS));
    await tasks.until(taskId, (task) => task.status === 'input_required');
    const workflowId = await workflowIdOf(await taskExchange(taskId));
    const beforeTheAnswers = await taskThatBeganTheWait(workflowId);

    await service.stopWorker();
    try {
      await tasks.update(taskId, { owner_approval: approve, security_approval: approve });
      expect(await signalsIn(workflowId, 'keyAnswer', false)).toBe(2);
      await resetWithoutSignals(workflowId, beforeTheAnswers);
    } finally {
      await service.startWorker();
    }
    // Both keys read as answered in Postgres; the workflow has neither until the client sends them again.
    await tasks.update(taskId, { owner_approval: approve, security_approval: approve });
    const done = await tasks.until(taskId, (task) => task.status === 'completed');
    expect(JSON.stringify(done)).toContain('granted');
    expect(await signalsIn(workflowId, 'keyAnswer')).toBe(2);
  }, 60_000);

  it('does not signal a key again that the workflow has', async () => {
    const tasks = taskClient(() => service.url);
    const taskId = createdTaskId(await tasks.call('request_access', ARGS));
    await tasks.until(taskId, (task) => task.status === 'input_required');
    const workflowId = await workflowIdOf(await taskExchange(taskId));
    await tasks.update(taskId, { owner_approval: approve });
    await tasks.update(taskId, { owner_approval: approve });
    expect(await signalsIn(workflowId, 'keyAnswer')).toBe(1);
    await tasks.update(taskId, { security_approval: approve });
    await tasks.until(taskId, (task) => task.status === 'completed');
    expect(await signalsIn(workflowId, 'keyAnswer')).toBe(2);
  }, 60_000);
});

/** How many times the API asked the workflow about retried answers to `round`'s ask (counted before each). */
async function redeliveryChecks(exchangeId: string, round: number): Promise<number> {
  const { rows } = await service.pool.query<{ redelivery_checks: number }>(
    'SELECT redelivery_checks FROM exchange_rounds WHERE exchange_id = $1 AND round = $2',
    [exchangeId, round],
  );
  return rows[0]!.redelivery_checks;
}

describe('a client that loops on a retried answer (MAX_REPEATED_ANSWERS=1)', () => {
  it('costs its round one workflow query, however many tasks/update of an answered key it sends', async () => {
    const tasks = taskClient(() => service.url);
    const taskId = createdTaskId(await tasks.call('request_access', { service: 'billing', reason: 'loop' }));
    await tasks.until(taskId, (task) => task.status === 'input_required');
    const { rows } = await service.pool.query<{ exchange_id: string }>(
      'SELECT exchange_id FROM exchange_tasks WHERE task_id = $1',
      [taskId],
    );
    const exchangeId = rows[0]!.exchange_id;
    const approve = accept({ approve: true });
    await tasks.update(taskId, { owner_approval: approve });
    for (let i = 0; i < 6; i += 1) await tasks.update(taskId, { owner_approval: approve });
    expect(await redeliveryChecks(exchangeId, 1)).toBe(1);
    // The task goes on as before: the other key completes it.
    await tasks.update(taskId, { security_approval: approve });
    await tasks.until(taskId, (task) => task.status === 'completed');
  }, 60_000);

  it('costs its round one workflow query, however often a 2026-07-28 leg comes back with its answers', async () => {
    const ask = await rawCall(service.url, 'tools/call', GREET);
    const exchangeId = await newestExchange('greet');
    const answering = { ...GREET, inputResponses: { name: accept({ name: 'Loop' }) } };
    await service.stopWorker();
    let reply: RpcReply;
    try {
      reply = await rawCall(service.url, 'tools/call', { ...answering, requestState: ask.body.result!.requestState });
      for (let legs = 0; legs < 4 && isComeBack(reply); legs += 1)
        reply = await rawCall(service.url, 'tools/call', {
          ...answering,
          requestState: reply.body.result!.requestState,
        });
      expect(await redeliveryChecks(exchangeId, 1)).toBe(1);
    } finally {
      await service.startWorker();
    }
    reply = await comeBackUntilAnswered(answering, reply);
    expect(reply.body).toMatchObject({ result: { content: [{ type: 'text', text: 'Hello, Loop!' }] } });
    expect(await redeliveryChecks(exchangeId, 1)).toBe(1);
  }, 60_000);
});

describe('a legacy client that repeats its response', () => {
  const answer = (name: string) => accept({ name });

  async function greetAsked(session: LegacySession) {
    const call = await session.request('tools/call', GREET);
    const asked = await call.stream.until((m) => isRequest(m, 'elicitation/create'), 'elicitation/create');
    const { rows } = await service.pool.query<{ exchange_id: string }>(
      'SELECT exchange_id FROM legacy_calls WHERE session_id = $1 ORDER BY created_at DESC LIMIT 1',
      [session.sessionId],
    );
    const workflowId = await workflowIdOf(rows[0]!.exchange_id);
    return {
      ...call,
      requestId: asked.message.id!,
      workflowId,
      beforeTheAnswer: await taskThatBeganTheWait(workflowId),
    };
  }

  /** Answers with no worker running, then resets the workflow to before the answer, as an operator can. */
  async function answeredThenReset(session: LegacySession, call: Awaited<ReturnType<typeof greetAsked>>, name: string) {
    await service.stopWorker();
    try {
      expect(await session.respond(call.requestId, answer(name))).toBe(202);
      await resetWithoutSignals(call.workflowId, call.beforeTheAnswer);
    } finally {
      await service.startWorker();
    }
  }

  it('gets it delivered again when the workflow lost it to a reset, and the call completes with it', async () => {
    const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
    try {
      const call = await greetAsked(session);
      await answeredThenReset(session, call, 'Again');
      const before = await redelivered('legacy');
      expect(await session.respond(call.requestId, answer('Again'))).toBe(202);
      expect(await redelivered('legacy')).toBe(before + 1);
      const done = await call.stream.until((m) => isResponseTo(m, call.id), 'the call result', 30_000);
      expect(done.message.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Again!' }] });
      expect(await signalsIn(call.workflowId, 'keyAnswer')).toBe(1);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('counts each repeat before the workflow is asked: a client repeating an answer the workflow has costs one query', async () => {
    const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
    try {
      const call = await greetAsked(session);
      expect(await session.respond(call.requestId, answer('Kept'))).toBe(202);
      await call.stream.until((m) => isResponseTo(m, call.id), 'the call result', 30_000);
      for (let i = 0; i < 5; i += 1) expect(await session.respond(call.requestId, answer('Kept'))).toBe(202);
      const { rows } = await service.pool.query<{ repeats: number }>(
        'SELECT repeats FROM legacy_open_requests WHERE id = $1',
        [call.requestId],
      );
      expect(rows[0]!.repeats).toBe(1);
      expect(await signalsIn(call.workflowId, 'keyAnswer')).toBe(1);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('delivers it again at most MAX_REPEATED_ANSWERS times', async () => {
    const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
    try {
      const call = await greetAsked(session);
      await answeredThenReset(session, call, 'Capped');
      expect(await session.respond(call.requestId, answer('Capped'))).toBe(202); // the one re-delivery allowed
      await call.stream.until((m) => isResponseTo(m, call.id), 'the call result', 30_000);
      // A second loss: the repeat that would deliver it again is past the budget (MAX_REPEATED_ANSWERS=1).
      const again = await greetAsked(session);
      await answeredThenReset(session, again, 'Twice');
      expect(await session.respond(again.requestId, answer('Twice'))).toBe(202);
      expect(await signalsIn(again.workflowId, 'keyAnswer')).toBe(1);
      expect(await session.respond(again.requestId, answer('Twice'))).toBe(202);
      expect(await signalsIn(again.workflowId, 'keyAnswer')).toBe(1);
    } finally {
      await session.close();
    }
  }, 60_000);
});
