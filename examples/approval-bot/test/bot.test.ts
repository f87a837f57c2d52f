/**
 * The bot's doors, in process, against a fake chat: a webhook signed as the service signs one
 * (Standard Webhooks, by hand here) is posted once however often it comes; one signed otherwise is
 * refused and posts nothing; a command without the token is refused; an unknown one gets the usage.
 * Answering through the service is covered by the service's own test of this bot.
 */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { QuestionEvent } from 'durable-mcp/webhooks';
import { startApprovalBot, type ApprovalBot } from '../src/bot';
import { parseCommand } from '../src/commands';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const TOKEN = 'command-token-for-the-tests';

/** The three headers Standard Webhooks defines, signed with `secret`. */
function signed(id: string, body: string, secret = SECRET) {
  const timestamp = Math.floor(Date.now() / 1000);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}

const event = (type: QuestionEvent['type'], id = 'ex-1.1.0'): QuestionEvent => ({
  id: `${id}.${type.slice('question.'.length)}`,
  type,
  occurredAt: new Date().toISOString(),
  question: {
    id,
    url: `https://mcp.example.com/answers/q/${id}`,
    exchangeId: 'ex-1',
    round: 1,
    key: 'approval',
    method: 'tools/call',
    target: 'refund_order',
    message: 'Refund 120 on order <A-17>?',
    addressees: { anyOf: [{ scope: 'refunds:approve' }], excludeCaller: true },
    deadlineAt: new Date(Date.now() + 3_600_000).toISOString(),
  },
});

let chat: Server;
const posts: string[] = [];
let bot: ApprovalBot;
const logs: string[] = [];

before(async () => {
  chat = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      posts.push((JSON.parse(body) as { text: string }).text);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', resolve));
  bot = await startApprovalBot(
    {
      port: 0,
      host: '127.0.0.1',
      webhookSecrets: [SECRET],
      chatWebhookUrl: `http://127.0.0.1:${(chat.address() as AddressInfo).port}/hook`,
      commandToken: TOKEN,
      tokenUrl: 'http://127.0.0.1:9/token',
      clientId: 'approval-bot',
      clientSecret: 'not-used-here',
      resource: 'http://127.0.0.1:9/answers/api',
      scope: 'refunds:approve',
      answerApiUrl: 'http://127.0.0.1:9/answers/api',
    },
    { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
  );
});
after(async () => {
  await bot.close();
  chat.close();
});

const deliver = (body: string, headers: Record<string, string>) =>
  fetch(`${bot.url}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('webhooks', () => {
  it('posts a waiting question once, with its link and the commands, however often it is delivered', async () => {
    const waiting = event('question.waiting');
    const body = JSON.stringify(waiting);
    const before = posts.length;
    assert.equal((await deliver(body, signed(waiting.id, body))).status, 200);
    assert.equal((await deliver(body, signed(waiting.id, body))).status, 200);
    assert.equal(posts.length, before + 1);
    const text = posts.at(-1)!;
    assert.match(text, /<https:\/\/mcp\.example\.com\/answers\/q\/ex-1\.1\.0\|/);
    assert.match(text, /approve ex-1\.1\.0 \[note\]/);
    assert.match(text, /Refund 120 on order &lt;A-17&gt;\?/);
    assert.match(text, /holders of refunds:approve/);
  });

  it('refuses a webhook signed with another secret, and posts nothing', async () => {
    const body = JSON.stringify(event('question.reminder', 'ex-2.1.0'));
    const before = posts.length;
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    const response = await deliver(body, signed('ex-2.1.0.reminder', body, other));
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), { error: 'bad_signature' });
    assert.equal((await deliver(body, {})).status, 401);
    assert.equal(posts.length, before);
  });

  it('refuses a body past its bound', async () => {
    const body = 'x'.repeat(200 * 1024);
    assert.equal((await deliver(body, signed('big', body))).status, 413);
  });
});

describe('commands', () => {
  const command = (form: Record<string, string>) =>
    fetch(`${bot.url}/commands`, { method: 'POST', body: new URLSearchParams(form) });

  it('refuses a command without the token', async () => {
    const response = await command({ token: 'guess', text: 'approve ex-1.1.0' });
    assert.equal(response.status, 401);
    assert.ok(logs.includes('command refused: wrong token'));
  });

  it('answers an unknown command with the usage', async () => {
    const response = await command({ token: TOKEN, text: 'refund everything' });
    assert.equal(response.status, 200);
    assert.match(((await response.json()) as { text: string }).text, /^Usage:/);
  });

  it('reads approve with a note and decline', () => {
    assert.deepEqual(parseCommand('approve q-1.1.0 looks  fine'), {
      action: 'accept',
      questionId: 'q-1.1.0',
      note: 'looks fine',
    });
    assert.deepEqual(parseCommand(' decline q-1.1.0 '), { action: 'decline', questionId: 'q-1.1.0' });
    assert.equal(parseCommand('approve'), undefined);
    assert.equal(parseCommand('approve <script>'), undefined);
  });
});
