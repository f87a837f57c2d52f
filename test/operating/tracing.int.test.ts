/**
 * Traces (docs/operators.md "Traces"): with an OTLP endpoint set, one exchange is one trace that continues the
 * client's (`params._meta.traceparent`): the HTTP leg, Temporal's workflow start and run, each
 * round's activity and the handler's run, each the child of the one before, in both eras. Every
 * later leg of an exchange (a retry with answers, a legacy response) links to the span of
 * the leg that started it, whatever trace the later leg is in. With none set, nothing is sent. The collector is a tiny OTLP/HTTP JSON receiver in this test.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bundleWorkflowCode } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../../lib/payload-codec/data-converter';
import { TRACING_WORKFLOW_INTERCEPTORS_MODULE } from '../../lib/tracing/temporal-tracing';
import { isRequest, isResponseTo, LegacySession } from '../support/legacy-client';
import { accept, rawCall, rawPost } from '../support/raw-mcp';
import type { RawCallOptions } from '../../scripts/raw-mcp-call';
import { createdTaskId, taskClient } from '../support/task-client';
import { startTestService, type TestService } from '../support/test-service';
import { until } from '../support/until';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: { stringValue?: string; intValue?: number | string } }>;
  links?: Array<{ traceId: string; spanId: string; attributes?: OtlpSpan['attributes'] }>;
}

interface Receiver {
  url: string;
  spans: OtlpSpan[];
  posts: number;
  close(): Promise<void>;
}

/** Accepts POST /v1/traces (OTLP/HTTP, JSON) and keeps every span. */
async function startReceiver(): Promise<Receiver> {
  const receiver = { spans: [] as OtlpSpan[], posts: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        receiver.posts += 1;
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
        };
        for (const rs of body.resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? []) receiver.spans.push(...(ss.spans ?? []));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get spans() {
      return receiver.spans;
    },
    get posts() {
      return receiver.posts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
/** A client's own span: its W3C traceparent, and the ids to find its children by. */
function clientSpan() {
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : undefined);
};

/** The spans of one trace, and a check of one span's name and parent. */
function traceOf(receiver: Receiver, traceId: string) {
  const spans = () => receiver.spans.filter((s) => s.traceId === traceId);
  const named = (name: string | RegExp) =>
    spans().filter((s) => (typeof name === 'string' ? s.name === name : name.test(s.name)));
  const one = (name: string | RegExp, parent: OtlpSpan | string): OtlpSpan => {
    const parentId = typeof parent === 'string' ? parent : parent.spanId;
    const found = named(name).filter((s) => s.parentSpanId === parentId);
    if (found.length === 0)
      throw new Error(
        `no span ${String(name)} under ${parentId}; the trace has ${JSON.stringify(spans().map((s) => [s.name, s.spanId, s.parentSpanId]))}`,
      );
    return found[0]!;
  };
  return { spans, named, one };
}

/** The chain under a leg that starts an exchange: workflow start, run, round 1's activity, the handler. */
function expectFirstRound(trace: ReturnType<typeof traceOf>, leg: OtlpSpan, target: string) {
  const start = trace.one(/^StartWorkflow:exchangeWorkflow$/, leg);
  const run = trace.one(/^RunWorkflow:exchangeWorkflow$/, start);
  const scheduled = trace.named(/^StartActivity:runRound$/).filter((s) => s.parentSpanId === run.spanId);
  expect(scheduled.length).toBeGreaterThanOrEqual(2); // one per round
  const activities = scheduled.map((s) => trace.one(/^RunActivity:runRound$/, s));
  const handlers = activities.flatMap((a) => trace.named(/^handler /).filter((h) => h.parentSpanId === a.spanId));
  expect(handlers.map((h) => h.name).sort()).toEqual([`handler ${target} round 1`, `handler ${target} round 2`]);
  return { start, run };
}

/** The span links of `span` that point at the exchange's trace (attribute mcp.link=exchange). */
const exchangeLinks = (span: OtlpSpan) =>
  (span.links ?? []).filter((l) =>
    l.attributes?.some((a) => a.key === 'mcp.link' && a.value.stringValue === 'exchange'),
  );

/**
 * The exchange's trace as the first leg made it: that leg under the client's span, the workflow
 * under it, and both rounds' activities and handler runs under the workflow's run (round 2 too,
 * though a later leg, in another trace or none, answered round 1).
 */
function expectExchangeTrace(receiver: Receiver, client: ReturnType<typeof clientSpan>, era: string) {
  const trace = traceOf(receiver, client.traceId);
  const first = trace.one(/^mcp tools\/call$/, client.spanId);
  expect(attr(first, 'mcp.era')).toBe(era);
  expect(attr(first, 'mcp.round')).toBe(1);
  expect(exchangeLinks(first)).toEqual([]); // the first leg is the exchange's trace: nothing to link to
  expectFirstRound(trace, first, 'greet');
  return { trace, first };
}

/** Waits until the receiver holds what `ready` looks for (spans come in batches, a second apart). */
const spansArrive = (what: string, ready: () => boolean) =>
  until(what, () => Promise.resolve(ready() ? true : undefined), 20_000);

describe('traces off (no OTLP endpoint)', () => {
  it('sends nothing and runs the exchange as before', async () => {
    const receiver = await startReceiver();
    const service = await startTestService();
    try {
      expect(service.config.tracing).toBeUndefined();
      const first = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
      const done = await rawCall(service.url, 'tools/call', {
        name: 'greet',
        arguments: {},
        inputResponses: { name: accept({ name: 'Ada' }) },
        requestState: first.body.result!.requestState,
      });
      expect(done.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(receiver.posts).toBe(0);
    } finally {
      await service.close();
      await receiver.close();
    }
  }, 60_000);
});

describe('traces on (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let receiver: Receiver;
  let service: TestService;
  // An upstream MCP server behind the gateway: its calls continue the exchange's trace.
  let upstream: SdkUpstream;

  beforeAll(async () => {
    receiver = await startReceiver();
    upstream = await startSdkUpstream();
    const { code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      workflowInterceptorModules: [TRACING_WORKFLOW_INTERCEPTORS_MODULE],
      failureConverterPath: FAILURE_CONVERTER_PATH,
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} },
    });
    service = await startTestService(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        UPSTREAM_URL: upstream.url,
        UPSTREAM_NAME: 'shop',
        UPSTREAM_TOOL_PREFIX: 'shop_',
      },
      { workflowBundle: { code } },
    );
  }, 120_000);

  afterAll(async () => {
    await service?.close();
    await receiver?.close();
    await upstream?.close();
  });

  it("continues the trace into an upstream's call: the round's call is a client span, its context sent along", async () => {
    const client = clientSpan();
    const done = await rawCall(service.url, 'tools/call', { name: 'shop_add', arguments: { a: 1, b: 2 } }, undefined, {
      meta: { traceparent: client.traceparent },
    });
    expect(done.body.result?.content).toEqual([{ type: 'text', text: '3' }]);
    const trace = traceOf(receiver, client.traceId);
    await spansArrive('the upstream span', () => trace.named(/^upstream shop tools\/call$/).length > 0);
    const handler = trace.named(/^handler shop_add round 1$/)[0]!;
    const call = trace.one(/^upstream shop tools\/call$/, handler);
    expect(attr(call, 'mcp.upstream')).toBe('shop');
    expect(attr(call, 'mcp.target')).toBe('add');
    const sent = upstream.calls.find((c) => c.name === 'add')!._meta?.traceparent as string;
    expect(sent).toBe(`00-${client.traceId}-${call.spanId}-01`);
  }, 60_000);

  it('continues the client trace of a 2026-07-28 exchange: leg, workflow, rounds, handler', async () => {
    const client = clientSpan();
    const meta = { traceparent: client.traceparent };
    await greetOverMrtr(service.url, { meta }, { meta }, 'Grace');

    const trace = traceOf(receiver, client.traceId);
    await spansArrive(
      'the exchange spans',
      () => trace.named(/^handler greet round 2$/).length > 0 && trace.named(/^RunWorkflow:/).length > 0,
    );
    const legs = trace.named('mcp tools/call').filter((s) => s.parentSpanId === client.spanId);
    expect(legs).toHaveLength(2);
    for (const leg of legs) {
      expect(attr(leg, 'mcp.method')).toBe('tools/call');
      expect(attr(leg, 'mcp.target')).toBe('greet');
      expect(attr(leg, 'mcp.era')).toBe('modern');
      expect(typeof attr(leg, 'mcp.exchange_id')).toBe('string');
    }
    expect(attr(legs[0]!, 'mcp.exchange_id')).toBe(attr(legs[1]!, 'mcp.exchange_id'));
    const starting = legs.find((l) => trace.named(/^StartWorkflow:/).some((s) => s.parentSpanId === l.spanId))!;
    expectFirstRound(trace, starting, 'greet');
    // The answering leg signals the workflow from within its own span.
    const answering = legs.find((l) => l !== starting)!;
    trace.one(/^SignalWorkflow:/, answering);
  }, 60_000);

  it('continues the client trace of a legacy exchange in a session', async () => {
    const client = clientSpan();
    await greetInSession(service.url, client.traceparent, 'Lin');

    const trace = traceOf(receiver, client.traceId);
    await spansArrive(
      'the exchange spans',
      () => trace.named(/^handler greet round 2$/).length > 0 && trace.named(/^RunWorkflow:/).length > 0,
    );
    const leg = trace.one('mcp tools/call', client.spanId);
    expect(attr(leg, 'mcp.era')).toBe('legacy');
    expect(attr(leg, 'mcp.target')).toBe('greet');
    expect(typeof attr(leg, 'mcp.exchange_id')).toBe('string');
    expectFirstRound(trace, leg, 'greet');
  }, 60_000);

  it.each([
    ["its own client's trace context", true],
    ['no trace context', false],
  ])(
    'links a 2026-07-28 retry with answers that carries %s to the trace of the exchange',
    async (_label, ownContext) => {
      const client = clientSpan();
      const retrying = clientSpan(); // another client span (or process) that sends the answers
      await greetOverMrtr(
        service.url,
        { meta: { traceparent: client.traceparent } },
        ownContext ? { meta: { traceparent: retrying.traceparent } } : {},
        'Ida',
      );

      const exchangeSpans = traceOf(receiver, client.traceId);
      await spansArrive('the exchange spans', () => exchangeSpans.named(/^handler greet round 2$/).length > 0);
      const { first: firstLeg } = expectExchangeTrace(receiver, client, 'modern');
      const exchangeId = attr(firstLeg, 'mcp.exchange_id');
      expect(typeof exchangeId).toBe('string');
      // The retry's span: found by its exchange, wherever its trace is.
      let retry: OtlpSpan | undefined;
      await spansArrive('the retry span', () => {
        retry = receiver.spans.find(
          (s) => s.name === 'mcp tools/call' && s !== firstLeg && attr(s, 'mcp.exchange_id') === exchangeId,
        );
        return retry !== undefined;
      });
      expect(attr(retry!, 'mcp.round')).toBe(2);
      if (ownContext) {
        // Its own client's span stays its parent: the retrying client's trace is whole.
        expect(retry!.traceId).toBe(retrying.traceId);
        expect(retry!.parentSpanId).toBe(retrying.spanId);
      } else {
        expect(retry!.traceId).not.toBe(client.traceId);
        expect(retry!.parentSpanId ?? '').toBe('');
      }
      expect(exchangeLinks(retry!).map((l) => [l.traceId, l.spanId])).toEqual([[client.traceId, firstLeg.spanId]]);
      // Its signal is made in its own span, in its own trace.
      traceOf(receiver, retry!.traceId).one(/^SignalWorkflow:/, retry!);
    },
    60_000,
  );

  it('links a legacy answer on the session to the trace of the exchange', async () => {
    const client = clientSpan();
    // The answer carries no trace context: a JSON-RPC response has no _meta of its own.
    await greetInSession(service.url, client.traceparent, 'Noor');

    const exchangeSpans = traceOf(receiver, client.traceId);
    await spansArrive('the exchange spans', () => exchangeSpans.named(/^handler greet round 2$/).length > 0);
    const { first } = expectExchangeTrace(receiver, client, 'legacy');
    const exchangeId = attr(first, 'mcp.exchange_id');
    let answer: OtlpSpan | undefined;
    await spansArrive('the answer span', () => {
      answer = receiver.spans.find((s) => s.name === 'mcp response' && attr(s, 'mcp.exchange_id') === exchangeId);
      return answer !== undefined;
    });
    expect(attr(answer!, 'mcp.era')).toBe('legacy');
    expect(attr(answer!, 'mcp.round')).toBe(2);
    expect(answer!.traceId).not.toBe(client.traceId);
    expect(exchangeLinks(answer!).map((l) => [l.traceId, l.spanId])).toEqual([[client.traceId, first.spanId]]);
    traceOf(receiver, answer!.traceId).one(/^SignalWorkflow:/, answer!);
  }, 60_000);

  it("links a task's tasks/update calls to the trace of the exchange the task is", async () => {
    const client = clientSpan();
    // The call that creates the task sends its trace context in the header; the approvers' updates send none.
    const creator = taskClient(() => service.url, { traceparent: client.traceparent });
    const approver = taskClient(() => service.url);
    const taskId = createdTaskId(await creator.call('request_access', { service: 'billing', reason: 'incident 7' }));
    await approver.until(taskId, (task) => task.status === 'input_required');
    await approver.update(taskId, { security_approval: accept({ approve: true, note: 'ok' }) });
    await approver.update(taskId, { owner_approval: accept({ approve: true }) });
    await approver.until(taskId, (task) => task.status === 'completed');

    const trace = traceOf(receiver, client.traceId);
    await spansArrive('the exchange spans', () => trace.named(/^handler request_access round 2$/).length > 0);
    const first = trace.one(/^mcp tools\/call$/, client.spanId);
    expectFirstRound(trace, first, 'request_access');
    const exchangeId = attr(first, 'mcp.exchange_id');
    const updates = () =>
      receiver.spans.filter((s) => s.name === 'mcp tasks/update' && attr(s, 'mcp.exchange_id') === exchangeId);
    await spansArrive('both tasks/update spans', () => updates().length === 2);
    for (const update of updates()) {
      expect(update.traceId).not.toBe(client.traceId);
      expect(exchangeLinks(update).map((l) => [l.traceId, l.spanId])).toEqual([[client.traceId, first.spanId]]);
    }
  }, 60_000);

  it("keeps a client's strings out of span names and cuts them in attributes: a 300 KB method or tool name costs a span 129 characters", async () => {
    const huge = (c: string) => c.repeat(300_000);
    const sent: string[] = [];
    const eras: Array<Record<string, string>> = [
      {},
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' },
    ];
    for (const headers of eras) {
      const client = clientSpan();
      sent.push(client.traceId);
      const body = {
        jsonrpc: '2.0',
        id: 1,
        method: huge('m'),
        params: { name: huge('n'), _meta: { traceparent: client.traceparent } },
      };
      const reply = await rawPost(service.url, body, headers);
      expect(reply.body.error).toBeDefined();
    }
    for (const traceId of sent) {
      const trace = traceOf(receiver, traceId);
      await spansArrive('the span of the leg', () => trace.named('mcp other').length > 0);
      const [leg] = trace.named('mcp other');
      expect(attr(leg!, 'mcp.method')).toBe(`${'m'.repeat(128)}…`);
      expect(attr(leg!, 'mcp.target')).toBe(`${'n'.repeat(128)}…`);
    }
    expect(receiver.spans.some((s) => s.name.length > 64)).toBe(false);
  }, 30_000);

  it('takes the W3C traceparent header when _meta has none', async () => {
    const client = clientSpan();
    const reply = await rawCall(service.url, 'tools/list', {}, undefined, {
      headers: { traceparent: client.traceparent },
    });
    expect(reply.status).toBe(200);
    const trace = traceOf(receiver, client.traceId);
    await spansArrive('the tools/list span', () => trace.named('mcp tools/list').length > 0);
    expect(trace.one('mcp tools/list', client.spanId)).toBeDefined();
  }, 30_000);
});

describe('OTEL_TRACES_SAMPLER=parentbased_always_off', () => {
  it("keeps a leg whose client's trace is sampled and drops one that starts a trace here", async () => {
    const receiver = await startReceiver();
    const service = await startTestService({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_TRACES_SAMPLER: 'parentbased_always_off',
    });
    try {
      const sampled = clientSpan();
      const unsampled = clientSpan().traceparent.replace(/-01$/, '-00'); // its client decided not to keep it
      for (const traceparent of [undefined, unsampled, sampled.traceparent]) {
        const reply = await rawCall(service.url, 'tools/list', {}, undefined, {
          headers: traceparent ? { traceparent } : {},
        });
        expect(reply.status).toBe(200);
      }
      const kept = traceOf(receiver, sampled.traceId);
      await spansArrive('the sampled tools/list span', () => kept.named('mcp tools/list').length > 0);
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // a batch later, nothing else came
      expect(receiver.spans.map((s) => [s.name, s.traceId])).toEqual([['mcp tools/list', sampled.traceId]]);
    } finally {
      await service.close();
      await receiver.close();
    }
  }, 60_000);
});

/** A legacy greet in a session at `url`, its first request carrying `traceparent`, answered with `name`. */
async function greetInSession(url: string, traceparent: string, name: string): Promise<void> {
  const session = await LegacySession.open(url, { capabilities: { elicitation: {} } });
  try {
    const { id, stream } = await session.request('tools/call', {
      name: 'greet',
      arguments: {},
      _meta: { traceparent },
    });
    const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'the elicitation of greet');
    expect(await session.respond(ask.message.id!, accept({ name }))).toBe(202);
    const final = await stream.until((m) => isResponseTo(m, id), 'the result of greet');
    expect(final.message.result).toMatchObject({ content: [{ type: 'text', text: `Hello, ${name}!` }] });
    stream.close();
  } finally {
    await session.close();
  }
}

/** A 2026-07-28 greet in two legs at `url`, each sent with its own call options (its `_meta`), answered with `name`. */
async function greetOverMrtr(url: string, first: RawCallOptions, retry: RawCallOptions, name: string): Promise<void> {
  const ask = await rawCall(url, 'tools/call', { name: 'greet', arguments: {} }, undefined, first);
  expect(ask.body.result?.resultType).toBe('input_required');
  const params = {
    name: 'greet',
    arguments: {},
    inputResponses: { name: accept({ name }) },
    requestState: ask.body.result!.requestState,
  };
  const done = await rawCall(url, 'tools/call', params, undefined, retry);
  expect(done.body.result?.content).toEqual([{ type: 'text', text: `Hello, ${name}!` }]);
}
