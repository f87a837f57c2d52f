/**
 * What a policy's approval says besides who: its reminder, its escalation and its step-up, in front
 * of a real upstream (the official TypeScript SDK 2.x server, test/support/sdk-upstream.ts), as the
 * same words do for a handler's `elicitFrom`. A held call's approval is announced to a webhook
 * receiver when it waits, when its reminder is due and when it escalates; a manager the escalation
 * adds cannot open it before and answers it after, and only then is the call forwarded. An approval
 * that requires a sign-in with MFA sends a password-only approver to sign in again, and takes the
 * answer of the same person signed in with MFA. The service runs as `durable-mcp dev` does (its
 * development sign-in, which names the sign-in's methods).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { QuestionEvent } from '../../lib/webhooks';
import { webhookReceiver } from '../support/webhook-receiver';
import type { Browser } from '../answers/browser';
import { startDevAnsweringService } from '../answers/dev-answering-service';
import { answerOnPage, questionPage, signedInByDevSignIn } from '../answers/page-answerer';
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import type { TestService } from '../support/test-service';
import { until } from '../support/until';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
/** Long enough that the manager's first look comes before it, on a busy machine. */
const ESCALATE_AFTER_MS = 4_000;

/** Big sums: approvers, reminded after a second, escalated to the managers. */
const BIG_SUMS = {
  name: 'big sums',
  tools: ['add'],
  when: [{ argument: 'a', op: 'gte', value: 1_000_000 }],
  approve: {
    anyOf: [{ group: 'approvers' }],
    waitMs: 120_000,
    remindAfterMs: 1_000,
    escalate: { afterMs: ESCALATE_AFTER_MS, to: [{ group: 'managers' }] },
  },
};
/** Big debts: the treasury, signed in with MFA. */
const BIG_DEBTS = {
  name: 'big debts',
  tools: ['add'],
  when: [{ argument: 'a', op: 'lte', value: -1_000_000 }],
  approve: { anyOf: [{ group: 'treasury' }], requireSignIn: { amr: ['mfa'] } },
};

const receiver = webhookReceiver<QuestionEvent>([SECRET]);
const { events } = receiver;

let upstream: SdkUpstream;
let service: TestService;
let origin: string;

beforeAll(async () => {
  const hook = await receiver.listen();
  upstream = await startSdkUpstream();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'approval-escalation-')), 'upstreams.json');
  writeFileSync(
    file,
    JSON.stringify({
      upstreams: [{ name: 'shop', url: upstream.url, toolPrefix: 'shop_', policies: [BIG_SUMS, BIG_DEBTS] }],
    }),
  );
  ({ service, origin } = await startDevAnsweringService(
    { name: 'none', tools: [] },
    {
      UPSTREAMS_FILE: file,
      WEBHOOK_URLS: hook,
      WEBHOOK_SECRETS: SECRET,
    },
  ));
}, 120_000);
afterAll(async () => {
  await service?.close();
  await upstream?.close();
  receiver.close();
});

/** The approval asked about the call of `shop_add` with `a` (a sum of this run's own), once it waits. */
const approvalOn = (a: number) =>
  until(`the approval of a=${a}`, async () => {
    const { rows } = await service.pool.query<{ id: string }>(
      `SELECT id FROM questions WHERE target = 'shop_add' AND arguments->>'a' = $1 AND status = 'waiting'`,
      [String(a)],
    );
    return rows[0]?.id;
  });

const eventsOn = (questionId: string) => events.filter((e) => e.question.id === questionId).map((e) => e.type);
const upstreamCallsWith = (a: number) => upstream.calls.filter((call) => call.arguments?.a === a);
const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

async function callAdd(a: number) {
  const client = await connectModernClient(service.url, {});
  const result = client.callTool({ name: 'shop_add', arguments: { a, b: 1 } }, { timeout: 100_000 });
  return result.finally(() => client.close());
}

describe("a policy's reminder, escalation and step-up", () => {
  it('reminds, then escalates: a manager cannot answer before and answers after; the call is forwarded once', async () => {
    const a = 1_000_000 + randomInt(1_000_000_000);
    const call = callAdd(a);
    const id = await approvalOn(a);
    const manager: Browser = await signedInByDevSignIn(origin, { subject: 'max', name: 'Max', groups: 'managers' });
    expect((await questionPage(manager, origin, id)).status).toBe(403);
    expect(eventsOn(id)).not.toContain('question.escalated');

    await until('the escalation', async () => (eventsOn(id).includes('question.escalated') ? true : undefined), 30_000);
    expect(upstreamCallsWith(a)).toEqual([]);
    expect((await answerOnPage(manager, origin, id, { action: 'accept' })).status).toBe(303);
    expect(textOf(await call)).toBe(String(a + 1));
    expect(upstreamCallsWith(a)).toHaveLength(1);

    await until('the answered event', async () => (eventsOn(id).includes('question.answered') ? true : undefined));
    expect(eventsOn(id)).toEqual(['question.waiting', 'question.reminder', 'question.escalated', 'question.answered']);
    const waiting = events.find((e) => e.question.id === id && e.type === 'question.waiting')!;
    expect(waiting.question.message).toBe(
      `Forward this call to shop's tool "add"? It says: Adds two numbers. (policy: big sums)`,
    );
    expect(waiting.question.addressees).toMatchObject({
      anyOf: [{ group: 'approvers' }],
      escalate: { afterMs: ESCALATE_AFTER_MS, to: [{ group: 'managers' }] },
    });
  }, 90_000);

  it('sends a password-only approver to sign in with MFA, and takes the answer once they did', async () => {
    const a = -1_000_000 - randomInt(1_000_000_000);
    const call = callAdd(a);
    const id = await approvalOn(a);
    const person = { subject: 'tess', name: 'Tess', groups: 'treasury' };
    const withPassword = await signedInByDevSignIn(origin, { ...person, amr: 'pwd' });
    const opened = await questionPage(withPassword, origin, id);
    expect(opened.status).toBe(403);
    expect(await opened.text()).toContain('This question needs a sign-in using multi-factor authentication (MFA)');
    expect(upstreamCallsWith(a)).toEqual([]);

    const withMfa = await signedInByDevSignIn(origin, { ...person, amr: 'pwd, mfa' });
    expect((await answerOnPage(withMfa, origin, id, { action: 'accept' })).status).toBe(303);
    expect(textOf(await call)).toBe(String(a + 1));
    expect(upstreamCallsWith(a)).toHaveLength(1);
  }, 90_000);
});
