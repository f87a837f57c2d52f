/**
 * What an approver sees on the answer page is what they approve, over HTTP against the service as
 * `durable-mcp dev` runs it (AUTH_MODE=off, the development sign-in, a real Temporal and Postgres,
 * the official 2.x client as the caller): a hostile argument's right-to-left override is shown as a
 * marker; a 5,000-character argument is on the page whole; the form's fields keep the order the
 * handler wrote them in (not Postgres's jsonb order); the answer API answers nothing there; the
 * caller of a question that excludes them sees why they cannot answer and no form; someone it is not
 * addressed to learns only that; and after the answer, every reload says who answered, when and what.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';
import { DEV_SIGN_IN_ISSUER } from '../../lib/auth/dev-answerer';
import { PAGE_HEADERS } from '../../services/api/src/answers/answer-pages';
import type { TestService } from '../support/test-service';
import { until } from '../support/until';
import { Browser } from './browser';
import { startDevAnsweringService } from './dev-answering-service';

/** The handler's order, which is not jsonb's (shortest key first would be ok, justification, approved_amount). */
const FORM = {
  type: 'object',
  properties: {
    justification: { type: 'string', title: 'Justification' },
    approved_amount: { type: 'number', title: 'Amount approved' },
    ok: { type: 'boolean', title: 'Pay it now' },
  },
  required: ['justification'] as string[],
} as const;
const FIELD_ORDER = ['justification', 'approved_amount', 'ok'];

/** A payment approved by someone in `payments`, never by its caller; or confirmed by the caller. */
const pay = (name: string, to: 'payments' | 'caller') =>
  defineTool({
    tool: { name, inputSchema: { type: 'object' } },
    run(args, ctx) {
      const approval = inputResponse(ctx.inputResponses, 'approval');
      if (approval.kind === 'elicit')
        return { content: [{ type: 'text', text: `${approval.action} ${String(args.to)}` }] };
      const addressing =
        to === 'payments'
          ? { anyOf: [answerer.group('payments')], excludeCaller: true }
          : { anyOf: [answerer.caller()] };
      return inputRequired({
        inputRequests: {
          approval: elicitFrom(addressing, { message: `Pay ${String(args.to)}?`, requestedSchema: FORM }),
        },
      });
    },
  });
const handlers: HandlerSet = {
  name: 'payments',
  tools: [pay('pay_invoice', 'payments'), pay('confirm_payment', 'caller')],
};

const HOSTILE_FILE = 'invoice\u202Efdp.exe';
const LONG_MEMO = 'm'.repeat(4_990) + 'END-OF-MEMO';
/** The bidirectional and zero-width characters a page must never render as they are. */
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F]/u;

let service: TestService;
let origin = '';
/** When this run began: a database kept from an earlier run has that run's questions too. */
const started = new Date();
beforeAll(async () => {
  ({ service, origin } = await startDevAnsweringService(handlers, { QUESTION_HOLD_MS: '4000' }));
}, 120_000);
afterAll(async () => {
  await service?.close();
});

async function callTool(name: string, args: Record<string, unknown>) {
  const client = new Client(
    { name: 'pay-desk', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(service.url)));
  const options = { onprogress: () => undefined, resetTimeoutOnProgress: true, timeout: 60_000 };
  const call = client.callTool({ name, arguments: args }, options);
  call.catch(() => undefined); // awaited by the test; a failure before then must not go unhandled
  return { client, call };
}

const SAME_ORIGIN = { origin: 'null', 'sec-fetch-site': 'same-origin' };
const hidden = (page: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1]?.replace(/&amp;/g, '&');

/** A browser signed in with the development sign-in. */
async function signIn(fields: Record<string, string>): Promise<Browser> {
  const browser = new Browser();
  const form = await (await browser.request(`${origin}/answers/sign-in?return=%2Fanswers`)).text();
  const posted = await browser.post(
    `${origin}/answers/sign-in`,
    { csrf: hidden(form, 'csrf')!, return: '/answers', ...fields },
    SAME_ORIGIN,
  );
  expect(posted.status).toBe(303);
  return browser;
}

/** The id of the question on `target` whose `to` argument is `to`, once it is recorded. */
const questionOf = (target: string, to: string) =>
  until(`the question of ${target} to ${to}`, async () => {
    const { rows } = await service.pool.query<{ id: string }>(
      `SELECT id FROM questions WHERE target = $1 AND arguments->>'to' = $2 AND asked_at >= $3`,
      [target, to, started],
    );
    return rows[0]?.id;
  });

/** The page with what its form posts back as values taken out: what a person reads. */
const readable = (page: string) => page.replace(/ value="[^"]*"/g, '');

describe('the answer page shows what is approved', () => {
  it("shows a hostile argument as a marker and a long one whole, in the handler's field order, and after the answer who, when and what", async () => {
    const { client, call } = await callTool('pay_invoice', { to: HOSTILE_FILE, memo: LONG_MEMO });
    const id = await questionOf('pay_invoice', HOSTILE_FILE);
    const rita = await signIn({ subject: 'rita', name: 'Rita Approver', groups: 'payments' });
    const shown = await rita.request(`${origin}/answers/q/${id}`);
    expect(shown.status).toBe(200);
    for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(shown.headers.get(name)).toBe(value);
    expect(shown.headers.get('content-security-policy')).toContain("base-uri 'none'");
    expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
    const page = await shown.text();

    expect(page).toContain('&quot;invoice⟨U+202E⟩fdp.exe&quot;');
    expect(page).toContain('Pay invoice⟨U+202E⟩fdp.exe?');
    expect(readable(page)).not.toMatch(HIDDEN);
    // The whole memo, folded behind a summary that says how long it is.
    expect(page).toContain(`&quot;${LONG_MEMO}&quot;`);
    expect(page).toContain('(5,003 characters: open to read it whole)');
    // The fields as the handler wrote them.
    const at = FIELD_ORDER.map((field) => page.indexOf(`name="content.${field}"`));
    expect(at.every((index) => index > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);

    const answered = await rita.post(
      `${origin}/answers/q/${id}`,
      {
        csrf: hidden(page, 'csrf')!,
        shown: hidden(page, 'shown')!,
        action: 'accept',
        'content.justification': 'The supplier is known.\nInvoice checked by phone.',
        'content.approved_amount': '120',
      },
      SAME_ORIGIN,
    );
    expect(answered.status).toBe(303);
    expect(((await call) as { content: Array<{ text: string }> }).content[0]!.text).toBe(`accept ${HOSTILE_FILE}`);

    // Reloaded (and reloaded again), the page says who answered, when and what.
    for (let reload = 0; reload < 2; reload++) {
      const after = await (await rita.request(`${origin}/answers/q/${id}`)).text();
      expect(after).toMatch(
        new RegExp(
          `Accepted by <span class="identity"><code>rita</code> of <code>${DEV_SIGN_IN_ISSUER}</code> \\(“Rita Approver”\\)</span> at <time datetime="[^"]+">\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC</time>, on the answer page\\.`,
        ),
      );
      expect(after).toContain(
        '<dl class="answer"><dt>Justification</dt><dd><span class="text">The supplier is known.\nInvoice checked by phone.</span></dd><dt>Amount approved</dt><dd><span class="text">120</span></dd><dt>Pay it now</dt><dd><span class="text">No</span></dd></dl>',
      );
      expect(after).not.toContain('name="action"');
    }
    await client.close();
  }, 90_000);

  it('shows the excluded caller why they cannot answer and no form; someone else only that it is not theirs', async () => {
    const { client, call } = await callTool('pay_invoice', { to: 'ACME-9', memo: 'quarterly' });
    const id = await questionOf('pay_invoice', 'ACME-9');

    // The caller (AUTH_MODE=off: anonymous), in the addressed group too, is still its caller.
    const caller = await signIn({ subject: 'anonymous', groups: 'payments' });
    const own = await caller.request(`${origin}/answers/q/${id}`);
    expect(own.status).toBe(200);
    const ownPage = await own.text();
    expect(ownPage).toContain('<h1>A question about your call</h1>');
    expect(ownPage).toContain('You made this call, and this question must be answered by someone else');
    expect(ownPage).toContain('&quot;ACME-9&quot;');
    expect(ownPage).not.toContain(`action="/answers/q/${id}"`);
    expect(ownPage).not.toContain('name="action"');
    const posted = await caller.post(
      `${origin}/answers/q/${id}`,
      { csrf: hidden(ownPage, 'csrf')!, action: 'accept', 'content.justification': 'mine' },
      SAME_ORIGIN,
    );
    expect(posted.status).toBe(403);

    const sam = await signIn({ subject: 'sam', groups: 'support' });
    const foreign = await sam.request(`${origin}/answers/q/${id}`);
    expect(foreign.status).toBe(403);
    const foreignPage = await foreign.text();
    expect(foreignPage).toContain('<h1>Not addressed to you</h1>');
    for (const secret of ['pay_invoice', 'ACME-9', 'quarterly', 'Justification', 'anonymous'])
      expect(foreignPage).not.toContain(secret);
    expect((await sam.request(`${origin}/answers/q/${id}x`)).status).toBe(404);

    const { rows } = await service.pool.query('SELECT 1 FROM question_answers WHERE question_id = $1', [id]);
    expect(rows).toEqual([]);
    // Someone in the group answers; the call ends.
    const rita = await signIn({ subject: 'rita', groups: 'payments' });
    const page = await (await rita.request(`${origin}/answers/q/${id}`)).text();
    await rita.post(
      `${origin}/answers/q/${id}`,
      { csrf: hidden(page, 'csrf')!, shown: hidden(page, 'shown')!, action: 'decline' },
      SAME_ORIGIN,
    );
    expect(((await call) as { content: Array<{ text: string }> }).content[0]!.text).toBe('decline ACME-9');
    await client.close();
  }, 90_000);

  it('keeps the answer API from answering anything with AUTH_MODE=off (nobody is a service), recording the attempt', async () => {
    const { client, call } = await callTool('confirm_payment', { to: 'ORDER-1' });
    const id = await questionOf('confirm_payment', 'ORDER-1');
    // The anonymous caller at the answer API is software acting for whoever runs it: a client.
    const read = await fetch(`${origin}/answers/api/questions/${encodeURIComponent(id)}`);
    expect(read.status).toBe(403);
    expect(((await read.json()) as { error: { code: string } }).error.code).toBe('client-token');
    const answeredVia = await fetch(`${origin}/answers/api/questions/${encodeURIComponent(id)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'accept', content: { ok: true, justification: 'confirmed' }, shownDigest: 'x' }),
    });
    expect(answeredVia.status).toBe(403);
    const { rows } = await service.pool.query<{ refusal: string }>(
      `SELECT refusal FROM question_answers WHERE question_id = $1`,
      [id],
    );
    expect(rows).toEqual([{ refusal: 'client-token' }]);

    // The caller answers at the page, signed in (here, the development sign-in as the anonymous caller).
    const caller = await signIn({ subject: 'anonymous' });
    const page = await (await caller.request(`${origin}/answers/q/${id}`)).text();
    expect([...page.matchAll(/name="content\.([a-z_]+)"/g)].map((m) => m[1])).toEqual(FIELD_ORDER);
    const answered = await caller.post(
      `${origin}/answers/q/${id}`,
      {
        csrf: hidden(page, 'csrf')!,
        shown: hidden(page, 'shown')!,
        action: 'accept',
        'content.justification': 'confirmed',
        'content.ok': 'true',
      },
      SAME_ORIGIN,
    );
    expect(answered.status).toBe(303);
    expect(((await call) as { content: Array<{ text: string }> }).content[0]!.text).toBe('accept ORDER-1');
    await client.close();
  }, 90_000);
});
