/**
 * How a round runs is the handler's declaration: a local activity by default (inside the workflow
 * task: a marker in history, no activity events), a regular heartbeating activity for a handler
 * that declares `roundActivity: 'regular'`. Each has its own bound on handler time. Real Temporal
 * dev server, real Postgres, raw 2026-07-28 legs.
 */
import { temporal } from '@temporalio/proto';
import { defineTool, inputRequired, inputResponse, type HandlerSet, type RoundActivity } from '@durable-mcp/handlers';
import { EXCHANGE_CANCELLED } from '../../lib/protocol/exchange-errors';
import { INTERNAL_ERROR } from '../../lib/protocol/json-rpc-codes';
import { eventually, exchangeStartedBy, exchangeStatus, type ExchangeRow } from '../support/exchange-rows';
import { accept, callUntilAnswered, rawCall, type RpcReply } from '../support/raw-mcp';
import { startTestService, type TestService } from '../support/test-service';

const EventType = temporal.api.enums.v1.EventType;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Asks for a name, then greets; `roundActivity` as given. */
function askOnce(name: string, roundActivity?: RoundActivity) {
  return defineTool({
    tool: { name, inputSchema: { type: 'object' } },
    ...(roundActivity ? { roundActivity } : {}),
    run(_args, ctx) {
      const answer = inputResponse(ctx.inputResponses, 'name');
      if (answer.kind === 'elicit') return { content: [{ type: 'text', text: `Hello, ${answer.content?.name}!` }] };
      return inputRequired({
        inputRequests: {
          name: inputRequired.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } }),
        },
      });
    },
  });
}

/** Takes 1.5 s, past the local bound these tests set and within the regular one. */
function slow(name: string, roundActivity?: RoundActivity) {
  return defineTool({
    tool: { name, inputSchema: { type: 'object' } },
    ...(roundActivity ? { roundActivity } : {}),
    async run() {
      await sleep(1_500);
      return { content: [{ type: 'text', text: 'done' }] };
    },
  });
}

/** Asks after 1.5 s (within the local bound of the cancel test's own service); counts its runs. */
let patientRuns = 0;
const patient = defineTool({
  tool: { name: 'patient_local', inputSchema: { type: 'object' } },
  async run() {
    patientRuns += 1;
    await sleep(1_500);
    return inputRequired({
      inputRequests: {
        name: inputRequired.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } }),
      },
    });
  },
});

const handlers: HandlerSet = {
  name: 'round-activity',
  tools: [
    askOnce('ask_local'),
    askOnce('ask_regular', 'regular'),
    slow('slow_local'),
    slow('slow_regular', 'regular'),
    patient,
  ],
};

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ LOCAL_HANDLER_TIMEOUT_MS: '500', HANDLER_TIMEOUT_MS: '20000' }, { handlers });
});
afterAll(() => service.close());

async function call(name: string): Promise<{ exchange: ExchangeRow; reply: RpcReply }> {
  let reply!: RpcReply;
  const exchange = await exchangeStartedBy(service.pool, name, async () => {
    reply = await callUntilAnswered(service.url, 'tools/call', { name, arguments: {} });
  });
  return { exchange, reply };
}

/** The finished workflow's history as event type names, in order (a leg is answered before the task that recorded it completes). */
/**
 * The types of a finished workflow's history events. A marker is named by what it records: a local
 * activity's is `MARKER_RECORDED`, any other's (a patch) `MARKER_RECORDED:<name>`.
 */
async function eventTypes(workflowId: string): Promise<string[]> {
  const handle = service.temporal.workflow.getHandle(workflowId);
  await handle.result();
  const history = await handle.fetchHistory();
  return (history.events ?? []).map((event) => {
    const type = EventType[event.eventType!]!.replace(/^EVENT_TYPE_/, '');
    const marker = event.markerRecordedEventAttributes?.markerName;
    return marker && marker !== 'core_local_activity' ? `${type}:${marker}` : type;
  });
}

/** Asks, answers (after `meanwhile`, if given) and returns the final reply; "come back" replies are followed. */
async function answerAndFinish(
  name: string,
  meanwhile?: () => Promise<void>,
): Promise<{ exchange: ExchangeRow; reply: RpcReply }> {
  const { exchange, reply: ask } = await call(name);
  expect(ask.body.result?.resultType).toBe('input_required');
  await meanwhile?.();
  const reply = await callUntilAnswered(service.url, 'tools/call', {
    name,
    arguments: {},
    inputResponses: { name: accept({ name: 'Ada' }) },
    requestState: ask.body.result!.requestState,
  });
  return { exchange, reply };
}

async function startsOf(exchangeId: string): Promise<Array<{ round: number; starts: number }>> {
  const { rows } = await service.pool.query<{ round: number; starts: number }>(
    'SELECT round, starts FROM exchange_round_starts WHERE exchange_id = $1 ORDER BY round',
    [exchangeId],
  );
  return rows;
}

describe('rounds as local activities (the default)', () => {
  it('run inside the workflow task: a marker per round and no activity events in history', async () => {
    const { exchange, reply } = await answerAndFinish('ask_local');
    expect(reply.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    const types = await eventTypes(exchange.workflow_id);
    expect(types.filter((t) => t === 'MARKER_RECORDED')).toHaveLength(2);
    expect(types.filter((t) => t.startsWith('ACTIVITY_TASK'))).toEqual([]);
  });

  it("count no start of a round the workflow vouches for: a fresh run's first task, a later task of a cached workflow", async () => {
    const { exchange } = await answerAndFinish('ask_local');
    expect(await startsOf(exchange.id)).toEqual([]);
  });

  it('count the start of a round whose workflow was rebuilt from history, so a worker that died mid-round is counted against MAX_HANDLER_ATTEMPTS', async () => {
    // A new worker has nothing cached: the answer's task replays the history, and cannot tell a
    // first start of round 2 from a retry of one that died with the old worker.
    const { exchange, reply } = await answerAndFinish('ask_local', async () => {
      await service.stopWorker();
      await service.startWorker();
    });
    expect(reply.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(await startsOf(exchange.id)).toEqual([{ round: 2, starts: 1 }]);
  });

  it('end the exchange with -32603 when the handler runs past LOCAL_HANDLER_TIMEOUT_MS', async () => {
    const { reply } = await call('slow_local');
    expect(reply.body.error).toMatchObject({ code: INTERNAL_ERROR, message: expect.stringMatching(/500 ms/) });
  });
});

describe("rounds of a handler that declares roundActivity: 'regular'", () => {
  it('run as regular activities, each round its scheduled, started and completed events', async () => {
    const { exchange, reply } = await answerAndFinish('ask_regular');
    expect(reply.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    const types = await eventTypes(exchange.workflow_id);
    expect(types.filter((t) => t === 'ACTIVITY_TASK_COMPLETED')).toHaveLength(2);
    expect(types).not.toContain('MARKER_RECORDED');
    // The one patch of a regular round: WaitingSince is cleared as its answers arrive.
    expect(types.filter((t) => t.startsWith('MARKER_RECORDED:'))).toEqual(['MARKER_RECORDED:core_patch']);
    // A first attempt counts no start: only a retried one can be a worker that died.
    expect(await startsOf(exchange.id)).toEqual([]);
  });

  it('may take up to HANDLER_TIMEOUT_MS', async () => {
    const { reply } = await call('slow_regular');
    expect(reply.body.result?.content).toEqual([{ type: 'text', text: 'done' }]);
  });
});

// A local round runs inside its workflow task, so a cancel that arrives meanwhile reaches the
// workflow when the round ends (or at the task's heartbeat, 8 s in); a regular round is cancelled at
// once and its late record loses to the ending. Either way the exchange ends as cancelled and the
// handler runs once.
describe('an operator cancel while a local round runs', () => {
  let patientService: TestService;
  beforeAll(async () => {
    patientService = await startTestService({ LOCAL_HANDLER_TIMEOUT_MS: '5000' }, { handlers });
  });
  afterAll(() => patientService.close());

  it('takes effect when the round ends: its ask stands, the next leg gets -32012 (operator), the handler ran once', async () => {
    let ask!: RpcReply;
    const exchange = await exchangeStartedBy(patientService.pool, 'patient_local', async () => {
      const leg = rawCall(patientService.url, 'tools/call', { name: 'patient_local', arguments: {} });
      await eventually(async () => patientRuns > 0, true, 20_000);
      const { rows } = await patientService.pool.query<{ workflow_id: string }>(
        "SELECT workflow_id FROM exchanges WHERE target = 'patient_local' AND status = 'running'",
      );
      await patientService.temporal.workflow.getHandle(rows[0]!.workflow_id).cancel(); // the Web UI's Request Cancellation
      ask = await leg;
    });
    expect(ask.body.result?.resultType).toBe('input_required');
    await expect(patientService.temporal.workflow.getHandle(exchange.workflow_id).result()).rejects.toThrow();
    const next = await rawCall(patientService.url, 'tools/call', {
      name: 'patient_local',
      arguments: {},
      inputResponses: { name: accept({ name: 'Ada' }) },
      requestState: ask.body.result!.requestState,
    });
    expect(next.body.error).toMatchObject({ code: EXCHANGE_CANCELLED, data: { cancelledBy: 'operator' } });
    expect(await exchangeStatus(patientService.pool, exchange.id)).toBe('cancelled');
    expect(patientRuns).toBe(1);
  });
});
