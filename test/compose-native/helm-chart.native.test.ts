/**
 * The Helm chart's rendered containers, run: `helm install` of deploy/helm/durable-mcp played on
 * this host (helm-release.ts) against the Postgres and the Temporal server of docker-compose.yml
 * (the ones an operator brings; scripts/compose-native, the server built from its Go module).
 * Each container runs its rendered command with its rendered environment (the ConfigMap, the
 * Secrets, `$(VAR)`), from the working copy standing for the image, confined as its
 * securityContext says where this host can (kubelet/pod-sandbox.ts), probed as the kubelet probes
 * it. Against it: the hooks' order and effects, the pods' confinement, both conformance
 * requirement sets through the API's Service, and an API replica stopped as Kubernetes stops it
 * while a 2025-11-25 client's call stream is open there. Needs helm (test/helm/chart-tools.ts).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Pool } from 'pg';
import { findTemporalCli } from '../../cli/dev/local-stack/temporal-dev-server';
import { runConformance } from '../../conformance/run-conformance';
import { projectRoot } from '../../lib/paths';
import { unregisteredSearchAttributes } from '../../lib/temporal/search-attribute-check';
import { describeWith } from '../helm/chart-tools';
import { installRelease, type NativeRelease } from './helm-release';
import { sandboxSupport } from './kubelet/pod-sandbox';
import type { NativePod } from './kubelet/native-pod';
import { until } from '../support/until';
import { buildDist, startTestTopology, type TestTopology } from './native-topology';

const ROOT = projectRoot();
const API = 'mcp-durable-mcp-api';
const WORKER = 'mcp-durable-mcp-worker';
const ELICIT = { name: 'test_input_required_result_elicitation', arguments: {} };
const sandbox = sandboxSupport();

let stack: TestTopology;
let release: NativeRelease;
let db: Pool;
const apiUrl = () => `${release.services[API]!.origin}/mcp`;
const apiPods = () => release.pods[API]!;
const running = () => Object.values(release.pods).flat();
/** Where the Service reaches a pod of the API. */
const endpointOf = (pod: NativePod) => `http://${pod.definition.ip}:${pod.definition.ports.http}`;

describeWith(['helm'])('the Helm chart, installed natively', () => {
  beforeAll(async () => {
    buildDist();
    stack = await startTestTopology({ only: ['temporal'] });
    const temporalCli = findTemporalCli();
    if (!temporalCli) throw new Error('no temporal CLI (TEMPORAL_CLI_PATH or on PATH): the namespace Job runs it');
    const { REQUEST_STATE_KEYS, PAYLOAD_CODEC_KEYS, EVIDENCE_SIGNING_KEYS } = stack.variables;
    release = await installRelease({
      values: {
        temporal: { address: stack.temporalAddress },
        worker: { replicaCount: 1 },
        secrets: {
          DATABASE_URL: { existingSecret: 'durable-mcp-database', existingSecretKey: 'url' },
          REQUEST_STATE_KEYS: { existingSecret: 'durable-mcp-keys' },
          PAYLOAD_CODEC_KEYS: { existingSecret: 'durable-mcp-keys' },
          EVIDENCE_SIGNING_KEYS: { existingSecret: 'durable-mcp-keys' },
        },
        // Its clients are the tests, on this host's loopback network.
        config: {
          AUTH_MODE: 'off',
          ALLOW_UNAUTHENTICATED: 'true',
          HANDLER_SET: 'conformance',
          REATTACH_IDENTICAL_CALLS_MS: 0,
        },
      },
      secrets: {
        'durable-mcp-database': { url: stack.databaseUrl },
        'durable-mcp-keys': {
          REQUEST_STATE_KEYS: REQUEST_STATE_KEYS!,
          PAYLOAD_CODEC_KEYS: PAYLOAD_CODEC_KEYS!,
          EVIDENCE_SIGNING_KEYS: EVIDENCE_SIGNING_KEYS!,
        },
      },
      dataDir: path.join(stack.dataDir, 'helm'),
      image: { projectRoot: ROOT, temporalCli },
      sandbox,
    });
    await Promise.all(running().map((pod) => pod.waitReady(180_000)));
    db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
  }, 900_000);

  afterAll(async () => {
    await db?.end();
    await release?.close();
    await stack?.close();
  }, 120_000);

  it('runs the migration Job, then the namespace Job, before any pod, as Helm orders the hooks', async () => {
    expect(release.jobs.map((job) => [job.name, job.hook])).toEqual([
      ['mcp-durable-mcp-migrations', 'pre-install'],
      ['mcp-durable-mcp-temporal-setup', 'pre-install'],
    ]);
    const { rows } = await db.query<{ name: string; applied_at: Date }>(
      'SELECT name, applied_at FROM schema_migrations',
    );
    expect(rows.map((r) => r.name).sort()).toEqual(
      readdirSync(path.join(ROOT, 'migrations'))
        .filter((f) => f.endsWith('.sql'))
        .sort(),
    );
    const firstPodAt = Math.min(...running().map((pod) => Date.parse(pod.events[0]!.split(' ')[0]!)));
    expect(Math.max(...rows.map((r) => r.applied_at.getTime()))).toBeLessThan(firstPodAt);
    const connection = await Connection.connect({ address: stack.temporalAddress });
    try {
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
      expect(unregisteredSearchAttributes(customAttributes ?? {})).toEqual([]);
    } finally {
      await connection.close();
    }
  });

  it('runs two API replicas and one worker from the rendered Deployments, each ready by its probes, behind the Service', async () => {
    expect(apiPods().map((pod) => pod.definition.argv)).toEqual([
      ['node', 'dist/cli/start/api-main.js'],
      ['node', 'dist/cli/start/api-main.js'],
    ]);
    expect(release.pods[WORKER]!.map((pod) => pod.definition.argv)).toEqual([
      ['node', 'dist/cli/start/worker-main.js'],
    ]);
    expect(running().map((pod) => pod.ready())).toEqual([true, true, true]);
    // No container had to be started again (a worker refuses a namespace without the attributes).
    for (const pod of running())
      expect({ pod: pod.definition.name, restarts: pod.restarts(), events: pod.events }).toEqual({
        pod: pod.definition.name,
        restarts: 0,
        events: pod.events,
      });
    const service = release.services[API]!;
    const before = service.forwarded.length;
    for (let i = 0; i < 4; i++) expect((await fetch(`${service.origin}/readyz`)).status).toBe(200);
    expect(new Set(service.forwarded.slice(before).map((f) => f.target))).toEqual(new Set(apiPods().map(endpointOf)));
  });

  it('runs each container as uid 10001, with no capabilities, no new privileges and only its emptyDir writable', async () => {
    if (!sandbox.confined) {
      if (process.env.CI) throw new Error(`pods cannot be confined here: ${sandbox.reason}`);
      process.stderr.write(`helm-chart.native.test.ts: pods not confined (${sandbox.reason}); not checked\n`);
      return;
    }
    for (const pod of running()) {
      const status = readFileSync(`/proc/${pod.pid()}/status`, 'utf8');
      const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1]?.trim().split(/\s+/);
      expect({ pod: pod.definition.name, uid: field('Uid'), gid: field('Gid'), groups: field('Groups') }).toEqual({
        pod: pod.definition.name,
        uid: ['10001', '10001', '10001', '10001'],
        gid: ['10001', '10001', '10001', '10001'],
        groups: ['10001'],
      });
      for (const set of ['CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb'])
        expect([set, field(set)]).toEqual([set, ['0000000000000000']]);
      expect(field('NoNewPrivs')).toEqual(['1']);
      // What it may write: its emptyDir (TMPDIR, standing for /tmp); not the image's files, nor
      // anything else of the host's.
      const tmp = pod.definition.env.TMPDIR!;
      expect(await pod.exec(['sh', '-c', 'echo x > "$1/written" && cat "$1/written"', 'sh', tmp])).toEqual({
        code: 0,
        output: 'x\n',
      });
      for (const target of [
        path.join(ROOT, 'dist', 'written'),
        path.join(os.tmpdir(), `written-${pod.definition.name}`),
      ]) {
        const attempt = await pod.exec(['sh', '-c', 'echo x > "$1"', 'sh', target]);
        expect({ target, refused: attempt.code !== 0 && /Read-only file system/.test(attempt.output) }).toEqual({
          target,
          refused: true,
        });
      }
    }
  });

  it.each(['2026-07-28', '2025-11-25'])(
    'passes the official %s conformance requirement set through the Service',
    async (requirements) => {
      const outputDir = mkdtempSync(path.join(os.tmpdir(), `helm-conformance-${requirements}-`));
      const run = await runConformance(apiUrl(), requirements, outputDir);
      if (run.exitCode !== 0) process.stdout.write(`${run.output}\nper-check results: ${outputDir}\n`);
      expect(run.exitCode).toBe(0);
    },
  );

  it('an API replica stopped as Kubernetes stops it: a 2025-11-25 call whose stream it held finishes on the other', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const asked: string[] = [];
    const client = new LegacyClient({ name: 'helm-native', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      await answered; // the person answers once the replica is gone
      return { action: 'accept', content: { name: 'Kube' } };
    });
    const service = release.services[API]!;
    const transport = new StreamableHTTPClientTransport(new URL(apiUrl()));
    await client.connect(transport);
    try {
      expect(transport.protocolVersion).toBe('2025-11-25');
      const call = client.callTool(ELICIT);
      await until('the elicitation of the call', async () => (asked.length === 1 ? true : undefined));
      // The call's stream: the POST still open.
      const stream = service.forwarded.filter((f) => f.method === 'POST' && f.open).at(-1)!;
      const holder = apiPods().find((pod) => stream.target === endpointOf(pod))!;
      const other = apiPods().find((pod) => pod !== holder)!;
      const stopped = await holder.stop();
      // Drained within its grace (preStop's sleep, then SIGTERM), exiting 0, never SIGKILLed.
      expect({ code: stopped.exit.code, killed: stopped.killed }).toEqual({ code: 0, killed: false });
      expect(holder.definition.preStop).toEqual(['sleep', expect.stringMatching(/^\d+$/)]);
      expect(stopped.afterMs).toBeGreaterThanOrEqual(Number(holder.definition.preStop![1]) * 1000);
      expect(stopped.afterMs).toBeLessThan(holder.definition.terminationGracePeriodSeconds * 1000);
      answer();
      expect(await call).toMatchObject({ content: [{ type: 'text', text: 'Hello, Kube!' }] });
      expect(asked).toEqual(['What is your name?']);
      // The client resumed its stream, from its last event, at the replica left in the Service.
      const resumed = service.forwarded.filter((f) => f.method === 'GET' && f.lastEventId !== undefined);
      expect(resumed.map((f) => f.target)).toContain(endpointOf(other));
      expect(resumed.every((f) => f.target !== stream.target)).toBe(true);
      // Its ReplicaSet's new pod takes the place of the stopped one.
      await release.replace(holder).waitReady(120_000);
    } finally {
      await client.close();
    }
  });
});
