/**
 * What an operator sees of an exchange in the Temporal UI, read back through the Temporal client:
 * its static summary and details, its current details (the `__temporal_workflow_metadata` query
 * the UI reads), its search attributes, and the summaries of its timers and activities in the
 * event history; for a waiting and a finished exchange of both eras, with nothing of an answer, an
 * argument's value or a session id in any of it. And the one visibility query for "waiting on a
 * person for more than N", which finds exactly the exchange that waits that long. Real Temporal
 * dev server, real Postgres.
 */
import { execFileSync } from 'node:child_process';
import { defaultPayloadConverter } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { findTemporalCli } from '../../cli/dev/local-stack/temporal-dev-server';
import { demoHandlers } from '../../built-in-handlers/demo';
import { SEARCH_ATTRIBUTES, waitingLongerThanQuery } from '../../lib/exchange/search-attributes';
import { ANONYMOUS_PRINCIPAL_ID } from '../../lib/exchange/principal';
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';
import { sessionRef } from '../../lib/log';
import { serviceDataConverter } from '../../lib/payload-codec/data-converter';
import { createPayloadCodec } from '../../lib/payload-codec/payload-codec';
import { CLIENT_INFO_META_KEY } from '../../lib/protocol/modern';
import { exchangeById, exchangeOfSession, exchangeStatus, eventually } from '../support/exchange-rows';
import { isRequest, isResponseTo, LegacySession } from '../support/legacy-client';
import { accept, rawCall, type RpcReply } from '../support/raw-mcp';
import { readStackInfo } from '../support/stack-info';
import { startTestService, type TestService } from '../support/test-service';

const EventType = temporal.api.enums.v1.EventType;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Values that must never reach Temporal's UI metadata or search attributes.
const ARGUMENT_SECRET = 'ARG-SECRET-7f3a';
const SAMPLED_SECRET = 'ANSWER-SECRET-sampled';
const ROOT_SECRET = 'file:///ANSWER-SECRET-root';
const TICKET_SECRET = 'ANSWER-SECRET-ticket';
const SECRETS = [ARGUMENT_SECRET, SAMPLED_SECRET, ROOT_SECRET, TICKET_SECRET];

/**
 * Round 1 asks the client's roots and its model; round 2 asks a person to approve, with a message
 * of the server's own; round 3 completes. Its `token` argument is never shown.
 */
const approveRollout = defineTool({
  tool: { name: 'approve_rollout', inputSchema: { type: 'object', properties: { token: { type: 'string' } } } },
  run(_args, ctx) {
    const approval = inputResponse(ctx.inputResponses, 'approval');
    if (approval.kind === 'elicit') return { content: [{ type: 'text', text: `approved: ${approval.action}` }] };
    if (inputResponse(ctx.inputResponses, 'roots').kind === 'roots') {
      return inputRequired({
        inputRequests: {
          approval: inputRequired.elicit({
            message: 'Approve the rollout of checkout 2.1.0 to production?',
            requestedSchema: {
              type: 'object',
              properties: { approve: { type: 'boolean' }, ticket: { type: 'string' } },
              required: ['approve', 'ticket'],
            },
          }),
        },
      });
    }
    return inputRequired({
      inputRequests: {
        roots: inputRequired.listRoots(),
        summary: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarize the change.' } }],
          maxTokens: 50,
        }),
      },
    });
  },
});

/** Asks a name once; its second round (a regular activity) takes `SLOW_ROUND_MS`. */
const SLOW_ROUND_MS = 3_000;
const slowRegular = defineTool({
  tool: { name: 'slow_regular', inputSchema: { type: 'object' } },
  roundActivity: 'regular',
  async run(_args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'name');
    if (answer.kind !== 'elicit') {
      return inputRequired({
        inputRequests: {
          name: inputRequired.elicit({
            message: 'Name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          }),
        },
      });
    }
    await sleep(SLOW_ROUND_MS);
    return { content: [{ type: 'text', text: 'done' }] };
  },
});

/** Asks finance, anyone with the refunds scope, or Rita, to approve a refund. */
const approveRefund = defineTool({
  tool: { name: 'approve_refund', inputSchema: { type: 'object' } },
  run(_args, ctx) {
    if (inputResponse(ctx.inputResponses, 'approval').kind === 'elicit')
      return { content: [{ type: 'text', text: 'ok' }] };
    return inputRequired({
      inputRequests: {
        approval: elicitFrom(
          {
            anyOf: [
              answerer.group('finance'),
              answerer.scope('refunds:approve'),
              answerer.principal('https://id.example', 'rita'),
            ],
          },
          {
            message: 'Refund 40 EUR?',
            requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } } },
          },
        ),
      },
    });
  },
});

const handlers: HandlerSet = {
  ...demoHandlers,
  name: 'ui-metadata',
  tools: [...demoHandlers.tools, approveRollout, slowRegular, approveRefund],
};
/** The version the service says its handlers have, as a package would (`name@version`). */
const HANDLER_VERSION = 'ui-tools@2.0.1';

const ALL_CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };
const MODERN_CLIENT = { [CLIENT_INFO_META_KEY]: { name: 'ui-test-client', version: '3.1.4' } };

interface Seen {
  summary?: string;
  details?: string;
  current?: string;
  attributes: Record<string, unknown>;
}

/** Everything the Temporal UI shows of a workflow, as the Temporal client reads it. */
async function seenIn(handle: WorkflowHandle): Promise<Seen> {
  const description = await handle.describe();
  const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  const attributes: Record<string, unknown> = {};
  for (const key of SEARCH_ATTRIBUTES) {
    const value = description.typedSearchAttributes.get(key as never);
    if (value !== undefined) attributes[key.name] = value;
  }
  return {
    summary: await description.staticSummary(),
    details: await description.staticDetails(),
    current: metadata.currentDetails,
    attributes,
  };
}

/** The summaries of a workflow's history events, in order, by event type (encrypted there: read through the codec). */
async function historySummaries(service: TestService, handle: WorkflowHandle): Promise<Array<[string, string]>> {
  const history = await handle.fetchHistory();
  const codec = createPayloadCodec(service.config.payloadCodec);
  const summaries: Array<[string, string]> = [];
  for (const event of history.events ?? []) {
    const summary = event.userMetadata?.summary;
    if (!summary) continue;
    const type = EventType[event.eventType!]!.replace('EVENT_TYPE_', '');
    const [decoded] = await codec.decode([summary]);
    summaries.push([type, defaultPayloadConverter.fromPayload<string>(decoded!)]);
  }
  return summaries;
}

/** Polls `probe` until `done` holds (returns the last value either way, for the assertion to show). */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await sleep(100);
    value = await probe();
  }
  return value;
}

function expectNoSecrets(...texts: unknown[]): void {
  const all = JSON.stringify(texts);
  for (const secret of SECRETS) expect(all).not.toContain(secret);
}

/** When Postgres recorded a round (the wait for its answers began then), and its ask's deadline. */
async function recordOf(service: TestService, exchangeId: string, round: number) {
  const { rows } = await service.pool.query<{ recorded_at: Date; deadline_at: Date }>(
    'SELECT recorded_at, deadline_at FROM exchange_rounds WHERE exchange_id = $1 AND round = $2',
    [exchangeId, round],
  );
  return rows[0]!;
}
const recordedAt = async (service: TestService, exchangeId: string, round: number) =>
  (await recordOf(service, exchangeId, round)).recorded_at;

async function newestExchange(service: TestService, target: string): Promise<{ id: string; workflow_id: string }> {
  const { rows } = await service.pool.query<{ id: string; workflow_id: string }>(
    'SELECT id, workflow_id FROM exchanges WHERE target = $1 ORDER BY created_at DESC LIMIT 1',
    [target],
  );
  return rows[0]!;
}

describe('exchanges in the Temporal UI', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(
      { HTTP_WAIT_MS: '10000', ROUND_TIMEOUT_MS: '120000' },
      { handlers, handlerVersion: HANDLER_VERSION },
    );
  });
  afterAll(async () => {
    await service?.close();
  });

  const call = (params: Record<string, unknown>): Promise<RpcReply> =>
    rawCall(service.url, 'tools/call', params, ALL_CAPABILITIES, { meta: MODERN_CLIENT });

  describe('a 2026-07-28 exchange', () => {
    const args = { token: ARGUMENT_SECRET };
    let handle: WorkflowHandle;
    let exchangeId: string;
    let second: RpcReply;

    it('says what it waits for while a person has its question', async () => {
      const first = await call({ name: 'approve_rollout', arguments: args });
      expect(first.body.result?.resultType).toBe('input_required');
      ({ id: exchangeId } = await newestExchange(service, 'approve_rollout'));
      handle = service.temporal.workflow.getHandle(`exchange-${exchangeId}`);
      second = await call({
        name: 'approve_rollout',
        arguments: args,
        inputResponses: {
          roots: { roots: [{ uri: ROOT_SECRET, name: 'checkout' }] },
          summary: { role: 'assistant', content: { type: 'text', text: SAMPLED_SECRET }, model: 'm' },
        },
        requestState: first.body.result!.requestState,
      });
      expect(second.body.result?.inputRequests).toHaveProperty('approval');

      const askedAt = await recordedAt(service, exchangeId, 2);
      // The workflow takes the round in just after it is recorded.
      const seen = await until(
        () => seenIn(handle),
        (s) => s.attributes.ExchangeRound === 2 && !!s.current?.startsWith('**Waiting for the answers to round 2**'),
      );

      expect(seen.summary).toBe('tools/call approve_rollout · modern · ui-test-client 3.1.4');
      expect(seen.details).toBe(
        [
          '**tools/call** approve_rollout',
          '',
          '- Era: modern (2026-07-28)',
          '- Client: ui-test-client 3.1.4',
          `- Handler version: ${HANDLER_VERSION}`,
          `- Exchange: ${exchangeId}`,
          '- Rounds: each waits at most 120 s for its answers; at most 8 asks; run as local activities',
        ].join('\n'),
      );
      expect(seen.attributes).toEqual({
        McpMethod: 'tools/call',
        McpTarget: 'approve_rollout',
        ExchangeStatus: 'running',
        ExchangeRound: 2,
        McpEra: 'modern',
        McpClientName: 'ui-test-client',
        WaitingSince: askedAt,
        McpPrincipal: ANONYMOUS_PRINCIPAL_ID,
        HandlerVersion: HANDLER_VERSION,
        WaitingOn: ['caller'],
      });
      const deadline = (await recordOf(service, exchangeId, 2)).deadline_at;
      expect(seen.current).toBe(
        [
          '**Waiting for the answers to round 2** of tools/call approve_rollout',
          '',
          '- **approval** (elicitation/create, form): Approve the rollout of checkout 2.1.0 to production? · fields: approve, ticket',
          '',
          `- Waiting since ${askedAt.toISOString()}`,
          `- Deadline ${deadline.toISOString()} (the round timeout: 120 s)`,
          '- Ask 2 of at most 8',
        ].join('\n'),
      );
      expectNoSecrets(seen);
    });

    it('says how it ended once it has, and its history reads like the exchange', async () => {
      const done = await call({
        name: 'approve_rollout',
        arguments: args,
        inputResponses: { approval: accept({ approve: true, ticket: TICKET_SECRET }) },
        requestState: second.body.result!.requestState,
      });
      expect(done.body.result?.resultType).toBe('complete');
      await handle.result();

      const seen = await seenIn(handle);
      expect(seen.summary).toBe('tools/call approve_rollout · modern · ui-test-client 3.1.4');
      expect(seen.attributes).toEqual({
        McpMethod: 'tools/call',
        McpTarget: 'approve_rollout',
        ExchangeStatus: 'completed',
        ExchangeRound: 3,
        McpEra: 'modern',
        McpClientName: 'ui-test-client',
        McpPrincipal: ANONYMOUS_PRINCIPAL_ID,
        HandlerVersion: HANDLER_VERSION,
      });
      expect(seen.current).toMatch(
        /^\*\*Ended: completed\*\* in round 3 of tools\/call approve_rollout\n\n- the handler returned its result\n- at \S+Z, after 2 asks$/,
      );

      // Local rounds: each round's summary is on its marker; each wait's on its timer.
      const summaries = await historySummaries(service, handle);
      expect(summaries).toEqual([
        ['WORKFLOW_EXECUTION_STARTED', 'tools/call approve_rollout · modern · ui-test-client 3.1.4'],
        ['MARKER_RECORDED', 'round 1: approve_rollout'],
        ['TIMER_STARTED', 'round 1 deadline'],
        ['TIMER_CANCELED', 'round 1 deadline'],
        ['MARKER_RECORDED', 'round 2: approve_rollout'],
        ['TIMER_STARTED', 'round 2 deadline'],
        ['TIMER_CANCELED', 'round 2 deadline'],
        ['MARKER_RECORDED', 'round 3: approve_rollout'],
      ]);
      expectNoSecrets(seen, summaries);

      // The history this version writes replays with this version's code.
      const { workflowBundlePath } = readStackInfo();
      await Worker.runReplayHistory(
        {
          workflowBundle: { codePath: workflowBundlePath },
          dataConverter: serviceDataConverter(service.config.payloadCodec),
        },
        await handle.fetchHistory(),
        // Its payloads are bound to its workflow id: the replay decodes as that workflow.
        handle.workflowId,
      );
    });
  });

  describe('a legacy exchange', () => {
    it("names its session by its tag, never its id, and says which of the ask's requests are answered", async () => {
      const session = await LegacySession.open(service.url, {
        protocolVersion: '2025-06-18',
        capabilities: ALL_CAPABILITIES,
        clientInfo: { name: 'legacy-ui-client', version: '0.0.7' },
      });
      try {
        const { id: callId, stream } = await session.request('tools/call', {
          name: 'approve_rollout',
          arguments: { token: ARGUMENT_SECRET },
        });
        const roots = await stream.until((m) => isRequest(m, 'roots/list'), 'roots/list request');
        await stream.until((m) => isRequest(m, 'sampling/createMessage'), 'sampling/createMessage request');
        const exchange = await exchangeOfSession(service.pool, session.sessionId);
        const handle = service.temporal.workflow.getHandle(exchange.workflow_id);
        const tag = sessionRef(session.sessionId).session;

        expect(await session.respond(roots.message.id as string, { roots: [{ uri: ROOT_SECRET }] })).toBe(202);
        // The current details come from the workflow at once; its search attributes through
        // visibility, a moment later: both are waited for.
        const seen = await until(
          () => seenIn(handle),
          (s) => !!s.current?.includes('- Answered so far: roots') && s.attributes.ExchangeRound === 1,
        );
        expect(seen.current).toContain('- Answered so far: roots');
        expect(seen.summary).toBe('tools/call approve_rollout · legacy era · legacy-ui-client 0.0.7');
        expect(seen.details).toContain('- Era: legacy era (2025-06-18)');
        expect(seen.details).toContain('- Client: legacy-ui-client 0.0.7');
        expect(seen.details).toContain(`- Session: ${tag}`);
        expect(seen.details).toContain(`- Handler version: ${HANDLER_VERSION}`);
        const askedAt = await recordedAt(service, exchange.id, 1);
        expect(seen.attributes).toEqual({
          McpMethod: 'tools/call',
          McpTarget: 'approve_rollout',
          ExchangeStatus: 'running',
          ExchangeRound: 1,
          McpEra: 'legacy',
          McpClientName: 'legacy-ui-client',
          McpSession: tag,
          WaitingSince: askedAt,
          McpPrincipal: ANONYMOUS_PRINCIPAL_ID,
          HandlerVersion: HANDLER_VERSION,
          WaitingOn: ['caller'],
        });
        expect(seen.current).toContain('**Waiting for the answers to round 1** of tools/call approve_rollout');
        expect(seen.current).toContain("- **roots** (roots/list): asks for the client's roots");
        expect(seen.current).toContain("- **summary** (sampling/createMessage): asks the client's model");
        expect(JSON.stringify(seen)).not.toContain(session.sessionId);
        expectNoSecrets(seen);

        await session.notify('notifications/cancelled', { requestId: callId, reason: 'no longer needed' });
        expect(await eventually(() => exchangeStatus(service.pool, exchange.id), 'cancelled')).toBe('cancelled');
        await stream.until((m) => isResponseTo(m, callId), 'the call ending').catch(() => undefined);
        stream.close();
        await handle.result().catch(() => undefined);
        const ended = await seenIn(handle);
        expect(ended.attributes).toMatchObject({ ExchangeStatus: 'cancelled', McpSession: tag });
        expect(ended.attributes).not.toHaveProperty('WaitingSince');
        expect(ended.attributes).not.toHaveProperty('WaitingOn');
        expect(ended.current).toContain('**Ended: cancelled** in round 2 of tools/call approve_rollout');
        expect(ended.current).toContain('- cancelled by the client (error -32012)');
        const summaries = await historySummaries(service, handle);
        expect(summaries).toEqual([
          ['WORKFLOW_EXECUTION_STARTED', 'tools/call approve_rollout · legacy era · legacy-ui-client 0.0.7'],
          ['MARKER_RECORDED', 'round 1: approve_rollout'],
          ['TIMER_STARTED', 'round 1 deadline'],
          ['TIMER_CANCELED', 'round 1 deadline'],
          ['MARKER_RECORDED', 'record ending: cancelled'],
        ]);
      } finally {
        await session.close();
      }
    });
  });

  it('clears WaitingSince as soon as the answers to a regular round arrive, while its handler still runs', async () => {
    const first = await call({ name: 'slow_regular', arguments: {} });
    const { id, workflow_id } = await newestExchange(service, 'slow_regular');
    const handle = service.temporal.workflow.getHandle(workflow_id);
    const askedAt = await recordedAt(service, id, 1);
    const asking = await until(
      () => seenIn(handle),
      (s) => s.attributes.WaitingSince !== undefined,
    );
    expect(asking.attributes.WaitingSince).toEqual(askedAt);
    expect(asking.attributes.WaitingOn).toEqual(['caller']);

    const answering = call({
      name: 'slow_regular',
      arguments: {},
      inputResponses: { name: accept({ name: 'Ada' }) },
      requestState: first.body.result!.requestState,
    });
    const running = await until(
      () => seenIn(handle),
      (s) => s.attributes.WaitingSince === undefined,
    );
    expect(running.attributes).toMatchObject({ ExchangeStatus: 'running', ExchangeRound: 1 });
    expect(running.attributes).not.toHaveProperty('WaitingOn');
    expect(running.current).toMatch(/^\*\*Running round 2\*\* of tools\/call slow_regular: the answers/);
    expect((await answering).body.result?.resultType).toBe('complete');
    await handle.result();
    const summaries = await historySummaries(service, handle);
    expect(summaries).toEqual([
      ['WORKFLOW_EXECUTION_STARTED', 'tools/call slow_regular · modern · ui-test-client 3.1.4'],
      ['ACTIVITY_TASK_SCHEDULED', 'round 1: slow_regular'],
      ['TIMER_STARTED', 'round 1 deadline'],
      ['TIMER_CANCELED', 'round 1 deadline'],
      ['ACTIVITY_TASK_SCHEDULED', 'round 2: slow_regular'],
    ]);
  });

  it('lists whom an addressed question waits on while it waits, and nobody once its wait ended', async () => {
    await call({ name: 'approve_refund', arguments: {} });
    const { workflow_id } = await newestExchange(service, 'approve_refund');
    const handle = service.temporal.workflow.getHandle(workflow_id);
    const waiting = await until(
      () => seenIn(handle),
      (s) => s.attributes.WaitingOn !== undefined,
    );
    expect(waiting.attributes.WaitingOn).toEqual([
      'group:finance',
      'scope:refunds:approve',
      'principal:https://id.example|rita',
    ]);
    expect(waiting.attributes.WaitingSince).toBeInstanceOf(Date);
    // Found by whom it waits on, as an operator filters the list.
    const query = `WaitingOn = "group:finance" AND McpTarget = "approve_refund"`;
    const found = await until(
      async () => {
        const ids: string[] = [];
        for await (const w of service.temporal.workflow.list({ query })) ids.push(w.workflowId);
        return ids;
      },
      (ids) => ids.includes(workflow_id),
    );
    expect(found).toContain(workflow_id);

    // An operator's cancel in the Temporal UI ends the wait.
    await handle.cancel();
    await handle.result().catch(() => undefined);
    const ended = await until(
      () => seenIn(handle),
      (s) => s.attributes.WaitingOn === undefined,
    );
    expect(ended.attributes).toMatchObject({ ExchangeStatus: 'cancelled' });
    expect(ended.attributes).not.toHaveProperty('WaitingOn');
    expect(ended.attributes).not.toHaveProperty('WaitingSince');
  });

  it('finds with one visibility query exactly the exchange waiting longer than N seconds', async () => {
    const N = 3;
    const greet = () => call({ name: 'greet', arguments: {} });
    // Three asks before the cutoff: one still waits, one is answered, one is terminated while it waits.
    await greet();
    const waiting = await newestExchange(service, 'greet');
    const answeredFirst = await greet();
    const answered = await newestExchange(service, 'greet');
    await greet();
    const terminated = await newestExchange(service, 'greet');
    await sleep(N * 1000 + 500);
    const done = await call({
      name: 'greet',
      arguments: {},
      inputResponses: { name: accept({ name: 'Ada' }) },
      requestState: answeredFirst.body.result!.requestState,
    });
    expect(done.body.result?.resultType).toBe('complete');
    await service.temporal.workflow.getHandle(terminated.workflow_id).terminate('operator test');
    // And one that asked only now.
    await greet();
    const fresh = await newestExchange(service, 'greet');
    expect((await exchangeById(service.pool, fresh.id)).status).toBe('running');

    // This test's task queue only: the namespace holds other tests' exchanges too.
    const query = `${waitingLongerThanQuery(N * 1000, new Date())} AND TaskQueue = "${service.config.temporal.taskQueue}"`;
    const list = async () => {
      const ids: string[] = [];
      for await (const execution of service.temporal.workflow.list({ query })) ids.push(execution.workflowId);
      return ids.sort().join(',');
    };
    expect(await eventually(list, waiting.workflow_id)).toBe(waiting.workflow_id);
    expect([answered, terminated, fresh].map((e) => e.workflow_id)).not.toContain(waiting.workflow_id);

    // The same query from a terminal, as docs/operators.md shows it.
    const cli = findTemporalCli();
    if (cli) {
      const out = execFileSync(
        cli,
        ['workflow', 'list', '--address', service.config.temporal.address, '--query', query, '--output', 'json'],
        { encoding: 'utf8' },
      );
      const listed = (JSON.parse(out) as Array<{ execution: { workflowId: string } }>).map(
        (w) => w.execution.workflowId,
      );
      expect(listed).toEqual([waiting.workflow_id]);
    }
  });
});

describe('an exchange nobody answers', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(
      { ROUND_TIMEOUT_MS: '1500', HTTP_WAIT_MS: '5000' },
      { handlers, handlerVersion: HANDLER_VERSION },
    );
  });
  afterAll(async () => {
    await service?.close();
  });

  it('says it expired, and its history shows the deadline that fired and the ending it recorded', async () => {
    await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} }, { elicitation: {} });
    const { id, workflow_id } = await newestExchange(service, 'greet');
    const handle = service.temporal.workflow.getHandle(workflow_id);
    expect(await eventually(() => exchangeStatus(service.pool, id), 'expired')).toBe('expired');
    await handle.result();
    const seen = await seenIn(handle);
    expect(seen.summary).toBe('tools/call greet · modern');
    expect(seen.details).toContain('- Client: not named (no clientInfo)');
    expect(seen.attributes).toEqual({
      McpMethod: 'tools/call',
      McpTarget: 'greet',
      ExchangeStatus: 'expired',
      ExchangeRound: 2,
      McpEra: 'modern',
      McpPrincipal: ANONYMOUS_PRINCIPAL_ID,
      HandlerVersion: HANDLER_VERSION,
    });
    expect(seen.current).toContain('**Ended: expired** in round 2 of tools/call greet');
    expect(seen.current).toContain('- no answers arrived within 1.5 s (error -32001)');
    const history = await handle.fetchHistory();
    expect(history.events?.some((e) => e.eventType === EventType.EVENT_TYPE_TIMER_FIRED)).toBe(true);
    expect(await historySummaries(service, handle)).toEqual([
      ['WORKFLOW_EXECUTION_STARTED', 'tools/call greet · modern'],
      ['MARKER_RECORDED', 'round 1: greet'],
      ['TIMER_STARTED', 'round 1 deadline'],
      ['MARKER_RECORDED', 'record ending: expired'],
    ]);
  });
});
