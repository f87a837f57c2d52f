/**
 * The example ChatOps bot (examples/approval-bot), run in this process against the real service:
 * real tokens from a real authorization server, Temporal, Postgres, the service's signed webhooks
 * and the official 2.x client. Alice's call waits on a question for a holder of refunds:approve;
 * the bot posts it to a fake chat with its link; the chat's slash command `approve <id> looks fine`
 * has the bot answer through the answer API as its own principal (dana's client), Alice gets the
 * result naming it, and the chat gets the outcome, then a refusal for a second answer. A webhook
 * signed otherwise is refused and posts nothing, a repeat is dropped, and a command without the
 * shared token is refused. No secret reaches the bot's log.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { answerer, type HandlerSet } from '@durable-mcp/handlers';
import { startApprovalBot, type ApprovalBot } from '../../examples/approval-bot/src/bot';
import { configFromEnv } from '../../examples/approval-bot/src/config';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { signWebhook } from '../../lib/webhooks/signature';
import { CLIENTS, startOAuthStack, type OAuthStack } from '../support/oauth-stack';
import { until } from '../support/until';
import { refundTool } from './refund-tool';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const COMMAND_TOKEN = randomBytes(16).toString('hex');

const refund = refundTool('refund', () => ({ anyOf: [answerer.scope('refunds:approve')], excludeCaller: true }));
const handlers: HandlerSet = { name: 'refunds', tools: [refund] };

/** What the chat's incoming webhook was sent, in order. */
const posts: string[] = [];
const chat = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    posts.push((JSON.parse(body) as { text: string }).text);
    res.end('ok');
  });
});
const logs: string[] = [];

let stack: OAuthStack;
let bot: ApprovalBot;
let chatUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', resolve));
  chatUrl = `http://127.0.0.1:${(chat.address() as AddressInfo).port}/services/T0/B0/hook-secret`;
  // The bot's port is known first: the service's WEBHOOK_URLS name it, and the bot needs the service's issuer.
  const botPort = await freePort();
  stack = await startOAuthStack(
    { WEBHOOK_URLS: `http://127.0.0.1:${botPort}/webhooks`, WEBHOOK_SECRETS: SECRET, WEBHOOK_MAX_INTERVAL_MS: '500' },
    { handlers },
  );
  // Configured as it is run, from its environment: its tokens are for the answer API's own resource.
  const config = configFromEnv({
    PORT: String(botPort),
    WEBHOOK_SECRETS: SECRET,
    CHAT_WEBHOOK_URL: chatUrl,
    COMMAND_TOKEN,
    BOT_TOKEN_URL: stack.as.tokenEndpoint,
    BOT_CLIENT_ID: CLIENTS.dana.client_id,
    BOT_CLIENT_SECRET: CLIENTS.dana.client_secret,
    ANSWER_API_URL: stack.answersResource,
    BOT_SCOPE: 'refunds:approve',
  });
  bot = await startApprovalBot(config, {
    info: (msg, fields) => logs.push(JSON.stringify({ msg, ...fields })),
    warn: (msg, fields) => logs.push(JSON.stringify({ msg, ...fields })),
    error: (msg, fields) => logs.push(JSON.stringify({ msg, ...fields })),
  });
}, 120_000);
afterAll(async () => {
  await bot?.close();
  await stack?.close();
  chat.close();
});

async function callAsAlice(order: string): Promise<string> {
  const client = new Client(
    { name: 'desk', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const authorization = await stack.bearer('alice');
  await client.connect(
    new StreamableHTTPClientTransport(new URL(stack.service.url), { requestInit: { headers: { authorization } } }),
  );
  try {
    const result = await client.callTool(
      { name: 'refund', arguments: { order } },
      { timeout: 60_000, resetTimeoutOnProgress: true, onprogress: () => undefined },
    );
    return (result as { content: Array<{ text: string }> }).content[0]!.text;
  } finally {
    await client.close();
  }
}

const slashCommand = (text: string, token = COMMAND_TOKEN) =>
  fetch(`${bot.url}/commands`, {
    method: 'POST',
    body: new URLSearchParams({ token, command: '/mcp', text, user_name: 'rita', response_url: 'http://127.0.0.1:9/' }),
  });
const postFor = (what: string, match: (text: string) => boolean) => until(what, async () => posts.find(match));

let waitingWebhookId = '';

describe('the approval bot', () => {
  it('posts the waiting question to the chat, answers it from the slash command as its own principal, and posts the outcome', async () => {
    const result = callAsAlice('R-1');
    result.catch(() => undefined); // awaited below; a failure before then must not go unhandled
    const waiting = await postFor('the question in the chat', (text) => text.includes('Refund R-1?'));
    const id = /`approve (\S+) \[note\]`/.exec(waiting)![1]!;
    expect(waiting).toContain(`<${stack.service.url.replace(/\/mcp$/, '')}/answers/q/${id}|the question's page>`);
    expect(waiting).toContain('for any of holders of refunds:approve');
    waitingWebhookId = `${id}.waiting`;

    const ack = await slashCommand(`approve ${id} looks fine`);
    expect(ack.status).toBe(200);
    expect(await ack.json()).toEqual({ response_type: 'ephemeral', text: `Approving ${id}…` });

    expect(await result).toBe('accept for R-1 by dana via api (looks fine)');
    const outcome = await postFor('the outcome in the chat', (text) => text.startsWith(`Approval of ${id}`));
    expect(outcome).toBe(`Approval of ${id} (asked by rita): taken, answered as dana; the question is decided.`);
    await postFor('the answered event in the chat', (text) =>
      text.startsWith('Answered by dana (accept, via api): Refund R-1?'),
    );

    // A second answer: the service's refusal, as it words it, in the chat.
    await slashCommand(`decline ${id}`);
    const refusal = await postFor('the refusal in the chat', (text) => text.startsWith(`Decline of ${id}`));
    expect(refusal).toMatch(/^Decline of \S+ \(asked by rita\): refused \(closed\): .*already answered by dana/);

    // Nothing secret in the bot's log: not the webhook secret, the command token, its client secret, the chat's URL.
    const logged = logs.join('\n');
    expect(logged).toContain('answer taken');
    for (const secret of [SECRET, COMMAND_TOKEN, CLIENTS.dana.client_secret, chatUrl, 'hook-secret'])
      expect(logged).not.toContain(secret);
  }, 90_000);

  it('refuses a webhook signed with another secret (401) and drops a repeat, posting nothing for either', async () => {
    const before = posts.length;
    const body = JSON.stringify({ id: 'forged.waiting', type: 'question.waiting', question: { message: 'Forged?' } });
    const forged = await fetch(`${bot.url}/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signWebhook('forged.waiting', Math.floor(Date.now() / 1000), body, [
          `whsec_${randomBytes(32).toString('base64')}`,
        ]),
      },
      body,
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: 'bad_signature' });

    // Signed right, but its webhook-id is the one the waiting question's event came with.
    const repeat = await fetch(`${bot.url}/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signWebhook(waitingWebhookId, Math.floor(Date.now() / 1000), body, [SECRET]),
      },
      body,
    });
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toEqual({ ok: true, repeat: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(posts.length).toBe(before);
  });

  it('refuses a command without the shared token, answering nothing', async () => {
    const before = posts.length;
    const refused = await slashCommand('approve some-question.1.0', 'not-the-token');
    expect(refused.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(posts.length).toBe(before);
    expect(logs.at(-1)).toContain('command refused: wrong token');
  });
});
