/**
 * Exchanges running when a new version is deployed must go on: today's workflow code replays the
 * histories an earlier version recorded (test/fixtures/histories-before-ui-metadata), including
 * exchanges that asked under the old version and were answered under this one, without a
 * nondeterminism error. Those histories were recorded before payloads were encrypted: they replay
 * through the service's data converter while it accepts plaintext (PAYLOAD_CODEC_ACCEPT_PLAINTEXT,
 * on for the upgrade), and are refused once it no longer does. Histories of tasks
 * (test/fixtures/histories-of-tasks), recorded encrypted when tasks were added, replay too, as do
 * those of answers that arrived before their round had asked (test/fixtures/histories-of-answers-ahead),
 * dropped by the release before and held by this one; both were encrypted before payloads were
 * bound to their workflow, so they replay while such payloads are accepted
 * (PAYLOAD_CODEC_UNBOUND=accept, for the upgrade) and are refused once they are not (the default,
 * `refuse`). Histories recorded since payloads are bound (test/fixtures/histories-bound) replay
 * as the workflow they were recorded as, and are refused replayed as another. All of them replay
 * as well once traces are turned on (Temporal's OpenTelemetry workflow interceptors in the
 * bundle), as when a deployment sets OTEL_EXPORTER_OTLP_ENDPOINT with exchanges in flight. No
 * server: a replay worker runs the histories against the bundle.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { createLogger } from '../../lib/log';
import { FAILURE_CONVERTER_PATH, serviceDataConverter } from '../../lib/payload-codec/data-converter';
import { parseSamplerSetting } from '../../lib/config/traces-sampler';
import { DEFAULT_TRACING_LIMITS } from '../../lib/config/tracing';
import { tracingWorkerOptions } from '../../lib/tracing/temporal-tracing';
import { startTracing, type Tracing } from '../../lib/tracing/tracer-provider';
import { installTemporalLogger } from '../../lib/temporal/logging';
import { readHistories } from '../support/history-json';
import { readStackInfo } from '../support/stack-info';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'histories-before-ui-metadata');
const TASK_FIXTURES = path.join(__dirname, '..', 'fixtures', 'histories-of-tasks');
const AHEAD_FIXTURES = path.join(__dirname, '..', 'fixtures', 'histories-of-answers-ahead');
const BOUND_FIXTURES = path.join(__dirname, '..', 'fixtures', 'histories-bound');
/** The throwaway key the task histories were encrypted under (their README). */
const TASK_FIXTURE_KEYS = [{ kid: 'fixture1', key: Buffer.alloc(32, 7) }];
const keys = [{ kid: 'k1', key: randomBytes(32) }];
/** The namespace a replay worker decodes as (Temporal's replay worker knows no other). */
const namespace = 'default';
/** The encrypted fixtures' codec: their key, and payloads sealed before binding accepted. */
const FIXTURE_CODEC = { keys: TASK_FIXTURE_KEYS, acceptPlaintext: false, unbound: 'accept', namespace } as const;
/** The codec a deployment runs once the upgrade is done: bound payloads only. */
const BOUND_CODEC = { ...FIXTURE_CODEC, unbound: 'refuse' } as const;

type Histories = ReturnType<typeof readHistories>;

/** A worker's tracing options: Temporal's OpenTelemetry workflow interceptors in its bundle, and their sink. */
interface Traced {
  code: string;
  sinks: ReturnType<typeof tracingWorkerOptions>['sinks'];
}

/** The workflow id a history was recorded under (its first event says), else its file name. */
const recordedWorkflowId = ({ name, history }: Histories[number]): string =>
  history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowId || name;

/**
 * Replays `histories` with the current bundle (or one with tracing's workflow interceptors), each
 * as the workflow it was recorded as (or as `as` says): each one's name, with the error it failed
 * with, if any. Histories replay one after the other, so results come in their order.
 */
async function replay(
  histories: Histories,
  codec: Parameters<typeof serviceDataConverter>[0],
  traced?: Traced,
  as: (recorded: Histories[number]) => string = recordedWorkflowId,
): Promise<Array<{ name: string; error?: string }>> {
  const { workflowBundlePath } = readStackInfo();
  const results: Array<{ name: string; error?: string }> = [];
  const replays = Worker.runReplayHistories(
    {
      workflowBundle: traced ? { code: traced.code } : { codePath: workflowBundlePath },
      ...(traced ? { sinks: traced.sinks } : {}),
      dataConverter: serviceDataConverter(codec),
    },
    histories.map((recorded) => ({ workflowId: as(recorded), history: recorded.history })),
  );
  for await (const result of replays) {
    const { name } = histories[results.length]!;
    results.push({ name, ...(result.error ? { error: String(result.error.message) } : {}) });
  }
  return results;
}

describe('workflow replay of histories recorded by an earlier version', () => {
  const histories = readHistories(FIXTURES);

  beforeAll(() => installTemporalLogger(createLogger('test', 'silent'), 'WARN'));

  const replayAll = (acceptPlaintext: boolean) => replay(histories, { keys, acceptPlaintext, namespace });

  it('has the histories to replay', () => {
    expect(histories.map((h) => h.name)).toEqual(
      expect.arrayContaining([
        'modern-local-waiting.json',
        'modern-local-completed.json',
        'modern-regular-waiting.json',
        'modern-regular-answered-after-deploy.json',
        'legacy-local-completed.json',
      ]),
    );
  });

  it('replays every one of them with the current workflow code, reading their payloads in clear', async () => {
    expect(await replayAll(true)).toEqual(histories.map(({ name }) => ({ name })));
  });

  it('refuses every one of them once plaintext is no longer accepted', async () => {
    const results = await replayAll(false);
    expect(results.map((r) => r.name)).toEqual(histories.map(({ name }) => name));
    expect(results.filter((r) => r.error === undefined)).toEqual([]);
  });
});

describe('workflow replay of task histories', () => {
  const histories = readHistories(TASK_FIXTURES);

  beforeAll(() => installTemporalLogger(createLogger('test', 'silent'), 'WARN'));

  it('has a history of each way a task ends', () => {
    expect(histories.map((h) => h.name)).toEqual([
      'task-after-input-completed.json',
      'task-cancelled-running.json',
      'task-cancelled-waiting.json',
      'task-completed-by-updates.json',
      'task-ttl-expired-running.json',
      'task-ttl-expired.json',
    ]);
  });

  it('replays every one of them with the current workflow code', async () => {
    expect(await replay(histories, FIXTURE_CODEC)).toEqual(histories.map(({ name }) => ({ name })));
  });

  it('refuses every one of them once payloads encrypted before binding are no longer accepted', async () => {
    const results = await replay(histories, { ...FIXTURE_CODEC, unbound: 'refuse' });
    expect(results.map((r) => r.name)).toEqual(histories.map(({ name }) => name));
    // Each fails its first workflow task (the input does not decode), not on nondeterminism.
    expect(results.filter((r) => !/workflow task failure/.test(r.error ?? ''))).toEqual([]);
  });
});

describe('workflow replay of answers that arrived ahead of their round', () => {
  const histories = readHistories(AHEAD_FIXTURES);

  beforeAll(() => installTemporalLogger(createLogger('test', 'silent'), 'WARN'));

  it('has, for each era, a history from before answers were held and one from after', () => {
    expect(histories.map((h) => h.name)).toEqual([
      'legacy-answer-ahead-dropped.json',
      'legacy-answer-ahead-held.json',
      'modern-answers-ahead-dropped.json',
      'modern-answers-ahead-held.json',
    ]);
  });

  it('replays every one of them with the current workflow code: those that dropped them drop them again', async () => {
    expect(await replay(histories, FIXTURE_CODEC)).toEqual(histories.map(({ name }) => ({ name })));
  });
});

describe('workflow replay of histories whose payloads are bound to their workflow', () => {
  const histories = readHistories(BOUND_FIXTURES);

  beforeAll(() => installTemporalLogger(createLogger('test', 'silent'), 'WARN'));

  it('has, for each era and kind of round, an exchange answered and completed', () => {
    expect(histories.map((h) => h.name)).toEqual([
      'legacy-local-answered.json',
      'modern-local-answered.json',
      'modern-regular-answered.json',
    ]);
  });

  it('replays every one of them, as the workflow it was recorded as, with bound payloads alone accepted', async () => {
    expect(await replay(histories, BOUND_CODEC)).toEqual(histories.map(({ name }) => ({ name })));
  });

  it('refuses every one of them replayed as another workflow: its payloads belong to their own', async () => {
    const results = await replay(histories, BOUND_CODEC, undefined, () => 'exchange-someone-else');
    expect(results.map((r) => r.name)).toEqual(histories.map(({ name }) => name));
    expect(results.filter((r) => !/workflow task failure/.test(r.error ?? ''))).toEqual([]);
  });
});

describe('workflow replay once traces are turned on, of histories recorded without them', () => {
  let traced: Traced;
  let tracing: Tracing;

  beforeAll(async () => {
    installTemporalLogger(createLogger('test', 'silent'), 'WARN');
    // A collector nobody listens on: replay exports nothing, and nothing here is sent.
    tracing = startTracing(
      { tracesUrl: 'http://127.0.0.1:9/v1/traces', sampler: parseSamplerSetting({}), limits: DEFAULT_TRACING_LIMITS },
      'replay-test',
    );
    const options = tracingWorkerOptions(tracing);
    const { code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      workflowInterceptorModules: options.interceptors.workflowModules,
      failureConverterPath: FAILURE_CONVERTER_PATH,
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} },
    });
    traced = { code, sinks: options.sinks };
  }, 120_000);

  afterAll(async () => {
    await tracing?.release();
  });

  it('replays every fixture history with the tracing interceptors in the bundle: no nondeterminism', async () => {
    const sets: Array<[Histories, Parameters<typeof serviceDataConverter>[0]]> = [
      [readHistories(FIXTURES), { keys, acceptPlaintext: true, namespace }],
      [readHistories(TASK_FIXTURES), FIXTURE_CODEC],
      [readHistories(AHEAD_FIXTURES), FIXTURE_CODEC],
      [readHistories(BOUND_FIXTURES), BOUND_CODEC],
    ];
    for (const [histories, codec] of sets) {
      expect(histories.length).toBeGreaterThan(0);
      expect(await replay(histories, codec, traced)).toEqual(histories.map(({ name }) => ({ name })));
    }
  });
});
