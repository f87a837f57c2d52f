/**
 * A question's moments reach bots as signed webhooks started by the exchange's own workflow:
 * waiting, the reminder and the escalation at their times, then its ending (answered or expired).
 * A second receiver is down for the whole wait: the exchange completes all the same, and its
 * deliveries are given up (counted). Real tokens, Temporal, Postgres and the official 2.x client.
 */
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';
import { workerRegistry } from '../../lib/metrics/worker-metrics';
import type { QuestionEvent } from '../../lib/webhooks';
import { webhookReceiver } from '../support/webhook-receiver';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack';
import { until } from '../support/until';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

const approve = (name: string, waitMs: number) =>
  defineTool({
    tool: { name, inputSchema: { type: 'object', properties: { order: { type: 'string' } } } },
    run(args, ctx) {
      const approval = inputResponse(ctx.inputResponses, 'approval');
      if (approval.kind === 'elicit') return { content: [{ type: 'text', text: `${approval.action}` }] };
      return inputRequired({
        inputRequests: {
          approval: elicitFrom(
            {
              anyOf: [answerer.scope('refunds:approve')],
              waitMs,
              remindAfterMs: 1_000,
              escalate: { afterMs: 2_000, to: [answerer.service('carol')] },
            },
            { message: `Approve ${String(args.order)}?`, requestedSchema: { type: 'object', properties: {} } },
          ),
        },
      });
    },
  });
let issuer = '';
const handlers: HandlerSet = {
  name: 'approvals',
  tools: [approve('approve', 60_000), approve('approve_quick', 3_000)],
};

const receiver = webhookReceiver<QuestionEvent>([SECRET]);
const { events } = receiver;

let stack: OAuthStack;
beforeAll(async () => {
  const hook = await receiver.listen();
  stack = await startOAuthStack(
    {
      // The second receiver is down the whole time.
      WEBHOOK_URLS: `${hook},http://127.0.0.1:9/down`,
      WEBHOOK_SECRETS: SECRET,
      WEBHOOK_MAX_ATTEMPTS: '2',
      WEBHOOK_MAX_INTERVAL_MS: '200',
    },
    { handlers },
  );
  issuer = stack.as.issuer;
}, 120_000);
afterAll(async () => {
  await stack?.close();
  receiver.close();
});

const eventsOf = (order: string) => events.filter((e) => e.question.message === `Approve ${order}?`);

async function call(name: string, order: string) {
  const client = new Client(
    { name: 'desk', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const authorization = await stack.bearer('alice');
  await client.connect(
    new StreamableHTTPClientTransport(new URL(stack.service.url), { requestInit: { headers: { authorization } } }),
  );
  return client
    .callTool({ name, arguments: { order } }, { timeout: 60_000 })
    .then(
      (r) => (r as { content: Array<{ text: string }> }).content[0]!.text,
      (e: { code?: number }) => e.code,
    )
    .finally(() => client.close());
}

const givenUp = async () =>
  (await workerRegistry.getSingleMetric('mcp_webhook_deliveries_total')!.get()).values.find(
    (v) => v.labels.outcome === 'given_up',
  )?.value ?? 0;

describe('question webhooks', () => {
  it('announce waiting, the reminder, the escalation and the answer, while a receiver that is down changes nothing', async () => {
    const result = call('approve', 'W-1');
    await until('the escalation', async () =>
      eventsOf('W-1').some((e) => e.type === 'question.escalated') ? true : undefined,
    );
    const waiting = eventsOf('W-1').find((e) => e.type === 'question.waiting')!;
    expect(waiting.question.addressees.anyOf).toEqual([{ scope: 'refunds:approve' }]);
    expect(waiting.question.url).toMatch(/\/answers\/q\//);
    expect(JSON.stringify(waiting)).not.toContain('W-1"'); // no arguments: the order is only in the message

    // Carol is addressed by the escalation only: her answer is taken now.
    const authorization = await stack.serviceBearer('carol');
    const url = `${stack.service.url.replace(/\/mcp$/, '')}/answers/api/questions/${encodeURIComponent(waiting.question.id)}`;
    const question = (await (await fetch(url, { headers: { authorization } })).json()) as { shownDigest: string };
    const answered = await fetch(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'accept', content: {}, shownDigest: question.shownDigest }),
    });
    expect(answered.status).toBe(200);
    expect(await result).toBe('accept');
    const done = await until('the answered event', async () =>
      eventsOf('W-1').find((e) => e.type === 'question.answered'),
    );
    expect(done.question.answeredBy).toEqual([
      expect.objectContaining({ id: `${issuer}|client:carol`, via: 'api', action: 'accept' }),
    ]);
    expect(eventsOf('W-1').map((e) => e.type)).toEqual([
      'question.waiting',
      'question.reminder',
      'question.escalated',
      'question.answered',
    ]);
    // The receiver that is down: each event given up after WEBHOOK_MAX_ATTEMPTS, the exchange long done.
    await until('the down receiver given up', async () => ((await givenUp()) >= 4 ? true : undefined), 60_000);
  }, 90_000);

  it('announce the expiry of a question nobody answered', async () => {
    expect(await call('approve_quick', 'E-1')).toBe(-32001);
    const expired = await until('the expired event', async () =>
      eventsOf('E-1').find((e) => e.type === 'question.expired'),
    );
    expect(expired.question.answeredBy).toBeUndefined();
  }, 60_000);
});
