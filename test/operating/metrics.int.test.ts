/**
 * Prometheus metrics of both services: the API's GET /metrics and the worker's own listener (with
 * the Temporal SDK's metrics beside its own), each read by a strict text-format reader, and the
 * counters checked to move by exactly what one exchange does. The processes are the production
 * mains (the API and the worker as OS processes) against the real Temporal and Postgres; the
 * gauges and state-only results are checked on an in-process service whose worker can be stopped.
 */
import { randomUUID } from 'node:crypto';
import { EXCHANGE_TERMINATED } from '../../lib/protocol/exchange-errors';
import { METRICS } from '../../lib/metrics/catalog';
import {
  stackProcessEnv,
  startApiProcess,
  startWorkerProcess,
  type ApiProcess,
  type WorkerProcess,
} from '../support/service-processes';
import { exchangeStatus } from '../support/exchange-rows';
import { LegacySession } from '../support/legacy-client';
import { parsePrometheusText, scrape, valueOf, type Exposition } from '../support/prometheus-text';
import { accept, callUntilAnswered, isComeBack, rawCall } from '../support/raw-mcp';
import { useTestService } from '../support/test-service';

/** Scrapes until `done` holds for the exposition (or 15 s pass), and returns the last one. */
async function scrapeUntil(url: string, done: (e: Exposition) => boolean): Promise<Exposition> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const exposition = await scrape(url);
    if (done(exposition) || Date.now() > deadline) return exposition;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const metricsOf = (mcpUrl: string) => mcpUrl.replace(/\/mcp$/, '/metrics');

describe('metrics of the API and worker processes', () => {
  let worker: WorkerProcess;
  let api: ApiProcess;
  let taskQueue: string;

  beforeAll(async () => {
    const env = stackProcessEnv();
    taskQueue = env.TEMPORAL_TASK_QUEUE;
    [worker, api] = await Promise.all([startWorkerProcess(env), startApiProcess(env)]);
  });
  afterAll(async () => {
    await api?.kill();
    await worker?.kill();
  });

  it('both parse as Prometheus text, with every catalog metric of the process and the SDK metrics on the worker', async () => {
    const apiText = await scrape(metricsOf(api.url));
    const workerText = await scrape(worker.metricsUrl);
    for (const definition of Object.values(METRICS)) {
      for (const [process, exposition] of [
        ['api', apiText],
        ['worker', workerText],
      ] as const) {
        const exported = exposition.types.get(definition.name);
        if ((definition.processes as readonly string[]).includes(process)) {
          expect([definition.name, exported]).toEqual([definition.name, definition.kind]);
          expect(exposition.help.get(definition.name)).toBe(definition.help);
        } else expect([definition.name, exported]).toEqual([definition.name, undefined]);
      }
    }
    // Node's own process metrics, on both.
    expect(apiText.types.get('process_cpu_seconds_total')).toBe('counter');
    expect(workerText.types.get('nodejs_heap_size_used_bytes')).toBe('gauge');
    // The SDK's exporter, through the worker's listener: its pollers are up on this task queue.
    const sdk = [...workerText.types.keys()].filter((name) => name.startsWith('temporal_'));
    expect(sdk.length).toBeGreaterThan(5);
    expect(workerText.samples.some((s) => s.name.startsWith('temporal_') && s.labels.task_queue === taskQueue)).toBe(
      true,
    );
    expect((await fetch(worker.metricsUrl.replace(/\/metrics$/, '/'))).status).toBe(404);
  });

  it('counters move by exactly what one two-round exchange and one refused call do', async () => {
    const greet = { method: 'tools/call', target: 'greet' };
    const [apiBefore, workerBefore] = await Promise.all([scrape(metricsOf(api.url)), scrape(worker.metricsUrl)]);
    // Rounds run as local activities unless a handler declares otherwise: the SDK counts each kind apart.
    const runRounds = (e: Exposition) =>
      ['temporal_activity_execution_latency_count', 'temporal_local_activity_execution_latency_count']
        .map((name) => valueOf(e, name, { activity_type: 'runRound', task_queue: taskQueue }))
        .reduce((a, b) => a + b, 0);

    const first = await rawCall(api.url, 'tools/call', { name: 'greet', arguments: {} });
    expect(first.body.result?.inputRequests).toHaveProperty('name');
    const done = await rawCall(api.url, 'tools/call', {
      name: 'greet',
      arguments: {},
      inputResponses: { name: accept({ name: 'Ada' }) },
      requestState: first.body.result!.requestState,
    });
    expect(done.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    const refused = await rawCall(api.url, 'tools/call', { name: 'no_such_tool_for_metrics', arguments: {} });
    expect(refused.body.error?.code).toBe(-32602);

    // The worker counts a round just after recording it, so its scrape may trail the client by a moment.
    const workerAfter = await scrapeUntil(
      worker.metricsUrl,
      (e) =>
        valueOf(e, 'mcp_exchanges_ended_total', { ...greet, status: 'completed' }) >
          valueOf(workerBefore, 'mcp_exchanges_ended_total', { ...greet, status: 'completed' }) &&
        runRounds(e) >= runRounds(workerBefore) + 2,
    );
    const apiAfter = await scrape(metricsOf(api.url));
    const delta = (before: Exposition, after: Exposition, name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);

    expect({
      started: delta(apiBefore, apiAfter, 'mcp_exchanges_started_total', { ...greet, era: 'modern' }),
      startedAll: delta(apiBefore, apiAfter, 'mcp_exchanges_started_total', {}),
      answersSignalled: delta(apiBefore, apiAfter, 'mcp_signals_sent_total', {
        signal: 'answers',
        result: 'delivered',
      }),
      signalsAll: delta(apiBefore, apiAfter, 'mcp_signals_sent_total', {}),
      humanWaits: delta(apiBefore, apiAfter, 'mcp_human_wait_seconds_count', { era: 'modern' }),
      invalidParams: delta(apiBefore, apiAfter, 'mcp_jsonrpc_errors_total', { era: 'modern', code: '-32602' }),
      errorsAll: delta(apiBefore, apiAfter, 'mcp_jsonrpc_errors_total', {}),
      stateOnly: delta(apiBefore, apiAfter, 'mcp_state_only_results_total', {}),
      apiEndings: delta(apiBefore, apiAfter, 'mcp_exchanges_ended_total', {}),
    }).toEqual({
      started: 1,
      startedAll: 1,
      answersSignalled: 1,
      signalsAll: 1,
      humanWaits: 1,
      invalidParams: 1,
      errorsAll: 1,
      stateOnly: 0,
      apiEndings: 0,
    });
    expect({
      asks: delta(workerBefore, workerAfter, 'mcp_rounds_total', { ...greet, outcome: 'ask' }),
      completes: delta(workerBefore, workerAfter, 'mcp_rounds_total', { ...greet, outcome: 'complete' }),
      roundsAll: delta(workerBefore, workerAfter, 'mcp_rounds_total', {}),
      latencies: delta(workerBefore, workerAfter, 'mcp_round_duration_seconds_count', greet),
      ended: delta(workerBefore, workerAfter, 'mcp_exchanges_ended_total', { ...greet, status: 'completed' }),
      endedAll: delta(workerBefore, workerAfter, 'mcp_exchanges_ended_total', {}),
      exchangeErrors: delta(workerBefore, workerAfter, 'mcp_exchange_errors_total', {}),
      sdkRoundActivities: runRounds(workerAfter) - runRounds(workerBefore),
    }).toEqual({
      asks: 1,
      completes: 1,
      roundsAll: 2,
      latencies: 2,
      ended: 1,
      endedAll: 1,
      exchangeErrors: 0,
      sdkRoundActivities: 2,
    });
    // Labels are the handler set's names: the refused target added no label value anywhere.
    for (const exposition of [apiAfter, workerAfter])
      expect(exposition.samples.filter((s) => Object.values(s.labels).includes('no_such_tool_for_metrics'))).toEqual(
        [],
      );
  });
});

describe('the API gauges, state-only results and endings it records', () => {
  const service = useTestService({ HTTP_WAIT_MS: '300' });
  const metrics = () => scrape(metricsOf(service.url));

  it('counts a state-only result, and the running exchange in mcp_exchanges_open', async () => {
    await service.stopWorker();
    try {
      const before = await metrics();
      const reply = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
      expect(isComeBack(reply)).toBe(true);
      const after = await metrics();
      expect(valueOf(after, 'mcp_state_only_results_total', { method: 'tools/call', target: 'greet' })).toBe(
        valueOf(before, 'mcp_state_only_results_total', { method: 'tools/call', target: 'greet' }) + 1,
      );
      const { rows } = await service.pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM exchanges WHERE status = 'running'",
      );
      expect(valueOf(after, 'mcp_exchanges_open')).toBe(Number(rows[0]!.n));
      expect(valueOf(after, 'mcp_exchanges_open')).toBeGreaterThanOrEqual(1);
    } finally {
      await service.startWorker();
    }
  });

  it('counts the ending it records for a workflow Temporal terminated, and the signal that found it closed', async () => {
    const before = await metrics();
    // HTTP_WAIT_MS is short here: a loaded machine may answer the first leg with a come-back first.
    const first = await callUntilAnswered(service.url, 'tools/call', { name: 'greet', arguments: {} });
    expect(first.body.result?.inputRequests).toHaveProperty('name');
    const { rows } = await service.pool.query<{ id: string; workflow_id: string }>(
      "SELECT id, workflow_id FROM exchanges WHERE target = 'greet' AND status = 'running' ORDER BY created_at DESC LIMIT 1",
    );
    await service.temporal.workflow.getHandle(rows[0]!.workflow_id).terminate('metrics test');
    const late = await rawCall(service.url, 'tools/call', {
      name: 'greet',
      arguments: {},
      inputResponses: { name: accept({ name: 'Ada' }) },
      requestState: first.body.result!.requestState,
    });
    expect(late.body.error?.code).toBe(EXCHANGE_TERMINATED);
    expect(await exchangeStatus(service.pool, rows[0]!.id)).toBe('terminated');
    const after = await scrapeUntil(
      metricsOf(service.url),
      (e) => valueOf(e, 'mcp_exchanges_ended_total', { status: 'terminated' }) > 0,
    );
    const labels = { method: 'tools/call', target: 'greet', status: 'terminated' };
    expect(valueOf(after, 'mcp_exchanges_ended_total', labels)).toBe(
      valueOf(before, 'mcp_exchanges_ended_total', labels) + 1,
    );
    const closed = { signal: 'answers', result: 'workflow_closed' };
    expect(valueOf(after, 'mcp_signals_sent_total', closed)).toBe(
      valueOf(before, 'mcp_signals_sent_total', closed) + 1,
    );
  });

  it('follows the legacy streams this process holds open', async () => {
    const session = await LegacySession.open(service.url);
    try {
      const before = valueOf(await metrics(), 'mcp_legacy_streams_open');
      const stream = await session.listen();
      expect(stream.response.status).toBe(200);
      expect(valueOf(await metrics(), 'mcp_legacy_streams_open')).toBe(before + 1);
      stream.close();
      const after = await scrapeUntil(metricsOf(service.url), (e) => valueOf(e, 'mcp_legacy_streams_open') === before);
      expect(valueOf(after, 'mcp_legacy_streams_open')).toBe(before);
    } finally {
      await session.close();
    }
  });
});

describe('the strict reader of the text format', () => {
  it('refuses what Prometheus would refuse', () => {
    expect(() => parsePrometheusText('x 1\n')).toThrow('without a TYPE');
    expect(() => parsePrometheusText('# TYPE x counter\nx{a="1"} 1\nx{a="1"} 2\n')).toThrow('twice');
    expect(() => parsePrometheusText('# TYPE x counter\nx{a=1} 1\n')).toThrow('not quoted');
    expect(() => parsePrometheusText('# TYPE x counter\nx one\n')).toThrow('bad value');
    expect(() => parsePrometheusText('# TYPE x gauge\nx 1')).toThrow('newline');
    expect(() =>
      parsePrometheusText('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'),
    ).toThrow('cumulative');
    expect(parsePrometheusText('# HELP x a "help"\n# TYPE x counter\nx{a="q\\"\\\\"} 1.5e3\n\n').samples).toEqual([
      { name: 'x', labels: { a: 'q"\\' }, value: 1500 },
    ]);
  });
});

describe('metrics behind METRICS_TOKEN', () => {
  const token = `metrics-${randomUUID()}-${randomUUID()}`;
  let worker: WorkerProcess;
  let api: ApiProcess;

  beforeAll(async () => {
    const env = stackProcessEnv({ METRICS_TOKEN: token });
    [worker, api] = await Promise.all([startWorkerProcess(env), startApiProcess(env)]);
  });
  afterAll(async () => {
    await api?.kill();
    await worker?.kill();
  });

  it('answers 401 to a scrape without the token or with another, on the API and on the worker', async () => {
    for (const url of [metricsOf(api.url), worker.metricsUrl]) {
      const bare = await fetch(url);
      expect(bare.status).toBe(401);
      expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await bare.text()).not.toMatch(/process_cpu_seconds_total/);
      expect((await fetch(url, { headers: { authorization: 'Bearer not-the-token' } })).status).toBe(401);
    }
  });

  it('serves both with the token', async () => {
    for (const url of [metricsOf(api.url), worker.metricsUrl]) {
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/process_cpu_seconds_total/);
    }
  });
});
