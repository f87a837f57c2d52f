/**
 * A rollout while a person is answering (WORKER_VERSIONING=pinned): an exchange started by v1 of
 * the handlers is finished by v1's worker after v2 became the deployment's current version, its
 * rounds included (a local-activity round and a regular-activity one); a new call gets v2's
 * question; and once nothing is pinned to v1, Temporal says it is drained, /admin says it holds no
 * exchange, and its worker stops without leaving anything behind. Both versions serve the same
 * task queue and the same tool names; each service is an API and a worker, as a rolled-out
 * replica would be. Real Temporal dev server (with the drainage flags of
 * cli/dev/local-stack/temporal-dev-server.ts), real Postgres, raw 2026-07-28 legs.
 */
import { randomUUID } from 'node:crypto';
import { defineTool, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';
import { workerRegistry } from '../../lib/metrics/worker-metrics';
import { admin, TEST_ADMIN_TOKEN } from '../support/admin-client';
import { exchangeStartedBy, type ExchangeRow } from '../support/exchange-rows';
import { parsePrometheusText, valueOf } from '../support/prometheus-text';
import { accept, rawCall, type RpcReply } from '../support/raw-mcp';
import { startTestService, type TestService } from '../support/test-service';
import { until } from '../support/until';

/** One version of the approvals tools: the same names, its own question and its own signature. */
function approvals(version: string, question: string): HandlerSet {
  const approve = (name: string, roundActivity?: 'regular') =>
    defineTool({
      tool: { name, inputSchema: { type: 'object' } },
      ...(roundActivity ? { roundActivity } : {}),
      run(_args, ctx) {
        const answer = inputResponse(ctx.inputResponses, 'approval');
        if (answer.kind === 'elicit') return { content: [{ type: 'text', text: `${name} approved by ${version}` }] };
        return inputRequired({
          inputRequests: {
            approval: inputRequired.elicit({
              message: question,
              requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
            }),
          },
        });
      },
    });
  return { name: 'approvals', tools: [approve('approve'), approve('approve_regular', 'regular')] };
}

const V1 = 'approvals@1.0.0';
const V2 = 'approvals@2.0.0';
const deploymentName = `versioning-${randomUUID()}`;
const env = {
  TEMPORAL_TASK_QUEUE: `test-versioning-${randomUUID()}`,
  WORKER_VERSIONING: 'pinned',
  WORKER_DEPLOYMENT_NAME: deploymentName,
  ADMIN_TOKEN: TEST_ADMIN_TOKEN,
};

let v1: TestService | undefined;
let v2: TestService | undefined;
afterAll(async () => {
  await v1?.close();
  await v2?.close();
});

const questionOf = (reply: RpcReply) =>
  (reply.body.result?.inputRequests as Record<string, { params: { message: string } }> | undefined)?.approval?.params
    .message;

async function ask(service: TestService, name: string): Promise<{ exchange: ExchangeRow; reply: RpcReply }> {
  let reply!: RpcReply;
  const exchange = await exchangeStartedBy(service.pool, name, async () => {
    reply = await rawCall(service.url, 'tools/call', { name, arguments: {} });
  });
  expect(reply.body.result?.resultType).toBe('input_required');
  return { exchange, reply };
}

const answer = (service: TestService, name: string, askReply: RpcReply) =>
  rawCall(service.url, 'tools/call', {
    name,
    arguments: {},
    inputResponses: { approval: accept({ ok: true }) },
    requestState: askReply.body.result!.requestState,
  });

/** The version Temporal has the exchange's workflow pinned to. */
async function pinnedBuildId(service: TestService, exchange: ExchangeRow): Promise<string | undefined> {
  const description = await service.temporal.workflow.getHandle(exchange.workflow_id).describe();
  const info = description.raw.workflowExecutionInfo?.versioningInfo;
  expect(info?.behavior).toBe(1); // VERSIONING_BEHAVIOR_PINNED
  return info?.deploymentVersion?.buildId ?? undefined;
}

type Deployment = {
  currentBuildId?: string;
  versions: Array<{ buildId: string; status: string; drainage?: string; runningExchanges: number }>;
};
async function deployment(service: TestService): Promise<Deployment> {
  const reply = await admin(service.url, '/deployment');
  expect(reply.status).toBe(200);
  return reply.body as Deployment;
}
const versionIn = (view: Deployment, buildId: string) => view.versions.find((v) => v.buildId === buildId);

it('v1 finishes the exchanges it started after v2 is rolled out; new calls get v2; v1 drains and stops', async () => {
  v1 = await startTestService(env, { handlers: approvals(V1, 'v1: approve this?'), handlerVersion: V1 });
  // WORKER_PROMOTE=current (the default): v1 made itself current when it started.
  expect((await deployment(v1)).currentBuildId).toBe(V1);

  const local = await ask(v1, 'approve');
  const regular = await ask(v1, 'approve_regular');
  expect(questionOf(local.reply)).toBe('v1: approve this?');
  expect(questionOf(regular.reply)).toBe('v1: approve this?');
  // v1's worker reports what it holds (its metrics, read from Temporal's visibility at each scrape).
  await until('v1 worker metrics count both exchanges', async () => {
    const exposition = parsePrometheusText(await workerRegistry.metrics());
    const labels = { deployment: deploymentName, build_id: V1 };
    return valueOf(exposition, 'mcp_worker_version_exchanges_running', labels) === 2 ? true : undefined;
  });

  // The rollout: v2 serves the same tools with another question, on the same task queue.
  v2 = await startTestService(env, { handlers: approvals(V2, 'v2: sign this off?'), handlerVersion: V2 });
  const rolledOut = await deployment(v2);
  expect(rolledOut.currentBuildId).toBe(V2);
  expect(versionIn(rolledOut, V1)).toMatchObject({ status: 'draining', runningExchanges: 2 });
  expect(versionIn(rolledOut, V2)).toMatchObject({ status: 'current', runningExchanges: 0 });

  // A v1 replica that restarts now does not roll the deployment back: v2 was created after it.
  const v1Again = await startTestService(env, { handlers: approvals(V1, 'v1: approve this?'), handlerVersion: V1 });
  await v1Again.close();
  expect((await deployment(v2)).currentBuildId).toBe(V2);

  // The person answers, through the new API: v1's worker runs the rounds and ends the exchanges.
  const localDone = await answer(v2, 'approve', local.reply);
  const regularDone = await answer(v2, 'approve_regular', regular.reply);
  expect(localDone.body.result?.content).toEqual([{ type: 'text', text: 'approve approved by approvals@1.0.0' }]);
  expect(regularDone.body.result?.content).toEqual([
    { type: 'text', text: 'approve_regular approved by approvals@1.0.0' },
  ]);
  expect(await pinnedBuildId(v2, local.exchange)).toBe(V1);
  expect(await pinnedBuildId(v2, regular.exchange)).toBe(V1);

  // A new call is v2's.
  const fresh = await ask(v2, 'approve_regular');
  expect(questionOf(fresh.reply)).toBe('v2: sign this off?');
  expect(await pinnedBuildId(v2, fresh.exchange)).toBe(V2);
  const freshDone = await answer(v2, 'approve_regular', fresh.reply);
  expect(freshDone.body.result?.content).toEqual([
    { type: 'text', text: 'approve_regular approved by approvals@2.0.0' },
  ]);

  // Nothing is pinned to v1 any more: Temporal calls it drained, /admin counts nothing on it.
  const drained = await until(
    'v1 drained',
    async () => {
      const view = await deployment(v2!);
      const old = versionIn(view, V1);
      return old?.status === 'drained' && old.runningExchanges === 0 ? view : undefined;
    },
    30_000,
  );
  expect(versionIn(drained, V2)).toMatchObject({ status: 'current' });

  // So v1 stops, and v2 goes on serving alone.
  await v1.close();
  v1 = undefined;
  const after = await ask(v2, 'approve');
  expect(questionOf(after.reply)).toBe('v2: sign this off?');
  const afterDone = await answer(v2, 'approve', after.reply);
  expect(afterDone.body.result?.content).toEqual([{ type: 'text', text: 'approve approved by approvals@2.0.0' }]);
});
