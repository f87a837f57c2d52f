import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createLogger } from '../lib/log';
import { questionEvent } from '../lib/webhooks/question-event';
import { TEST_QUESTION } from '../lib/webhooks/test-question';
import { createDeliverWebhook, WEBHOOK_FAILURE } from './deliver-webhook';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const event = questionEvent('question.waiting', TEST_QUESTION, { url: 'https://mcp.example/q', occurredAt: 0 });
const hits: string[] = [];
// Each path answers one way; /slow answers after the attempt's bound.
const server = createServer((req, res) => {
  hits.push(req.url ?? '');
  req.resume();
  if (req.url === '/redirect') res.writeHead(302, { location: '/target' }).end();
  else if (req.url === '/busy') res.writeHead(429, { 'retry-after': '3600' }).end();
  else if (req.url === '/slow') setTimeout(() => res.end(), 1_000);
  else res.end();
});
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function deliver(path: string, webhooks: Partial<Parameters<typeof createDeliverWebhook>[0]['webhooks']> = {}) {
  const url = `${base}${path}`;
  const deliverWebhook = createDeliverWebhook({
    webhooks: {
      urls: [url],
      secrets: [SECRET],
      timeoutMs: 200,
      maxAttempts: 3,
      maxIntervalMs: 60_000,
      maxBodyBytes: 65_536,
      ...webhooks,
    },
    log: createLogger('test', 'silent'),
    userAgent: 'durable-mcp-webhooks/test',
  });
  return new MockActivityEnvironment().run(deliverWebhook, { event, url });
}

async function failureOf(delivery: Promise<unknown>): Promise<ApplicationFailure> {
  const error: unknown = await delivery.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApplicationFailure);
  return error as ApplicationFailure;
}

describe('deliverWebhook', () => {
  it('delivers on a 2xx', async () => {
    await expect(deliver('/ok')).resolves.toEqual({ status: 200 });
  });

  it('never follows a redirect, and does not try it again', async () => {
    const failure = await failureOf(deliver('/redirect'));
    expect({ type: failure.type, nonRetryable: failure.nonRetryable }).toEqual({
      type: WEBHOOK_FAILURE.refused,
      nonRetryable: true,
    });
    expect(hits).not.toContain('/target');
  });

  it('gives up an attempt at WEBHOOK_TIMEOUT_MS, to be tried again', async () => {
    const failure = await failureOf(deliver('/slow'));
    expect({ type: failure.type, nonRetryable: failure.nonRetryable, message: failure.message }).toEqual({
      type: WEBHOOK_FAILURE.failed,
      nonRetryable: false,
      message: 'the receiver could not be reached: timed out',
    });
  });

  it('follows a Retry-After within the back-off cap', async () => {
    const failure = await failureOf(deliver('/busy', { maxIntervalMs: 5_000 }));
    expect(failure.nonRetryable).toBe(false);
    expect(failure.nextRetryDelay).toBe(5_000);
  });

  it('signs for configured receivers only, and refuses a body that cannot fit', async () => {
    const elsewhere = createDeliverWebhook({
      webhooks: {
        urls: [`${base}/ok`],
        secrets: [SECRET],
        timeoutMs: 200,
        maxAttempts: 1,
        maxIntervalMs: 1000,
        maxBodyBytes: 65_536,
      },
      log: createLogger('test', 'silent'),
      userAgent: 'test',
    });
    const before = hits.length;
    const stray = await failureOf(new MockActivityEnvironment().run(elsewhere, { event, url: `${base}/other` }));
    expect(stray.nonRetryable).toBe(true);
    expect((await failureOf(deliver('/ok', { maxBodyBytes: 100 }))).nonRetryable).toBe(true);
    expect(hits.length).toBe(before);
  });
});
