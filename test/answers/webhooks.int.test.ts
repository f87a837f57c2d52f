/**
 * Question webhooks end to end: the delivery workflow and its activity on a real worker (the
 * service's own, through the test service) against real Temporal, POSTing to real HTTP receivers
 * in this process. One event goes to four receivers at once, each behaving one way: one answers
 * 200, one 500 and then 200, one is never listening, one answers 400. Attempts are few and close
 * together (WEBHOOK_MAX_ATTEMPTS=3, WEBHOOK_MAX_INTERVAL_MS=200).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { temporal } from '@temporalio/proto';
import { workerRegistry } from '../../lib/metrics/worker-metrics';
import { verifyWebhook, type QuestionEvent } from '../../lib/webhooks';
import { questionEvent } from '../../lib/webhooks/question-event';
import { TEST_QUESTION } from '../../lib/webhooks/test-question';
import {
  webhookDeliveryWorkflow,
  webhookWorkflowIdFor,
  type WebhookDeliveryResult,
} from '../../workflows/webhook-delivery';
import { startTestService, type TestService } from '../support/test-service';

const SECRETS = [0, 1].map(() => `whsec_${randomBytes(32).toString('base64')}`);
const MAX_ATTEMPTS = 3;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback that records each request and answers as `statusOf` says. */
async function startReceiver(statusOf: (path: string, seen: number) => number) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = statusOf(path, received.filter((r) => r.path === path).length);
      res.end('ignored');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, received, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A loopback port nobody listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const givenUpCount = async () =>
  (await workerRegistry.getSingleMetric('mcp_webhook_deliveries_total')!.get()).values.find(
    (v) => v.labels.outcome === 'given_up',
  )?.value ?? 0;

/** The attempt each receiver's activity ended on, in WEBHOOK_URLS order (the order they were scheduled in). */
function lastAttempts(history: temporal.api.history.v1.IHistory): number[] {
  const events = history.events ?? [];
  const scheduled = events.filter(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverWebhook',
  );
  return scheduled.map((s) => {
    const started = events.find(
      (e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === String(s.eventId),
    );
    return started?.activityTaskStartedEventAttributes?.attempt ?? 0;
  });
}

describe('question webhooks', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let service: TestService;
  let urls: string[];
  const event: QuestionEvent = questionEvent(
    'question.waiting',
    { ...TEST_QUESTION, id: `q_${randomUUID()}`, answers: [] },
    { url: 'https://mcp.example/questions/q', occurredAt: Date.now() },
  );
  let result: WebhookDeliveryResult[];
  let givenUpBefore: number;

  beforeAll(async () => {
    receiver = await startReceiver((path, seen) =>
      path === '/flaky' ? (seen === 1 ? 500 : 200) : path === '/bad' ? 400 : 200,
    );
    urls = [
      `${receiver.base}/ok`,
      `${receiver.base}/flaky`,
      `http://127.0.0.1:${await closedPort()}/down`,
      `${receiver.base}/bad`,
    ];
    service = await startTestService({
      WEBHOOK_URLS: urls.join(','),
      WEBHOOK_SECRETS: SECRETS.join(','),
      WEBHOOK_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      WEBHOOK_MAX_INTERVAL_MS: '200',
      WEBHOOK_TIMEOUT_MS: '2000',
    });
    givenUpBefore = await givenUpCount();
    result = await service.temporal.workflow.execute(webhookDeliveryWorkflow, {
      taskQueue: service.config.temporal.taskQueue,
      workflowId: webhookWorkflowIdFor(event.id),
      args: [event],
    });
  });

  afterAll(async () => {
    await service?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  const at = (path: string) => receiver.received.filter((r) => r.path === path);

  it('ends normally with each receiver delivered or given up', () => {
    expect(result).toEqual([
      { receiver: 0, outcome: 'delivered' },
      { receiver: 1, outcome: 'delivered' },
      { receiver: 2, outcome: 'given_up' },
      { receiver: 3, outcome: 'given_up' },
    ]);
  });

  it('delivers a body signed as the exported verifier accepts, with either secret, and no argument values', () => {
    const [delivered] = at('/ok');
    expect(at('/ok')).toHaveLength(1);
    expect(delivered!.headers['webhook-id']).toBe(event.id);
    expect(String(delivered!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of SECRETS) expect(verifyWebhook(delivered!.headers, delivered!.body, secret).id).toBe(event.id);
    expect(() => verifyWebhook(delivered!.headers, `${delivered!.body} `, SECRETS)).toThrow(/no signature/);
    expect(delivered!.headers['content-type']).toBe('application/json');
    expect(delivered!.headers['user-agent']).toMatch(/^durable-mcp-webhooks\//);
    expect(JSON.parse(delivered!.body)).toEqual(event);
    for (const value of Object.values(TEST_QUESTION.arguments)) expect(delivered!.body).not.toContain(String(value));
    expect(delivered!.body).not.toContain(TEST_QUESTION.caller.subject);
  });

  it('gives a receiver that answered 500 the same event, freshly signed, on a retry', () => {
    const attempts = at('/flaky');
    expect(attempts).toHaveLength(2);
    expect(attempts.map((a) => a.headers['webhook-id'])).toEqual([event.id, event.id]);
    for (const attempt of attempts) expect(verifyWebhook(attempt.headers, attempt.body, SECRETS).id).toBe(event.id);
  });

  it('gives up on a receiver that is down after WEBHOOK_MAX_ATTEMPTS, and on a 400 at once, counting both', async () => {
    expect(at('/bad')).toHaveLength(1);
    const history = await service.temporal.workflow.getHandle(webhookWorkflowIdFor(event.id)).fetchHistory();
    expect(lastAttempts(history)).toEqual([1, 2, MAX_ATTEMPTS, 1]);
    expect((await givenUpCount()) - givenUpBefore).toBe(2);
  });
});
