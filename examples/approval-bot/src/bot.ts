/**
 * The approval bot: one HTTP server with two doors.
 *
 * - `POST /webhooks`: the service's question webhooks. Each is verified (Standard Webhooks
 *   signatures, `verifyWebhook` from `durable-mcp/webhooks`) on the raw body before anything is
 *   read from it, and a repeat of one already handled (same `webhook-id`) is dropped. A question
 *   waiting (or reminded, or escalated) is posted to the chat with its link; its ending too. The
 *   bot answers 2xx only once the chat has the post, so the service retries until it has.
 * - `POST /commands`: the chat's slash commands (`approve <id> [note]`, `decline <id>`), a
 *   form post carrying the shared COMMAND_TOKEN. Acknowledged at once (a chat waits 3 s at most);
 *   the bot then answers through the answer API as its own principal and posts the outcome.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, WebhookVerificationError, type QuestionEvent } from 'durable-mcp/webhooks';
import { answerApi, type Outcome } from './answer-api';
import { clientCredentials } from './bot-token';
import { chatTextOf, escapeChat, postToChat } from './chat';
import { parseCommand, USAGE, type Command } from './commands';
import type { BotConfig } from './config';
import { jsonLogger, type Logger } from './log';
import { RecentIds } from './recent-ids';

/** The bounds: the service sends at most 64 KiB (WEBHOOK_MAX_BODY_BYTES); a slash command is a short form. */
export const LIMITS = {
  webhookBodyBytes: 128 * 1024,
  commandBodyBytes: 8 * 1024,
  recentIds: 10_000,
  /** Each call out: the chat, the token endpoint, the answer API. */
  outboundTimeoutMs: 4_000,
  /** Commands being answered at once; past it the chat is told to try again. */
  commandsInFlight: 20,
};

export interface ApprovalBot {
  url: string;
  close(): Promise<void>;
}

class TooLarge extends Error {}

/** The body, up to `max` bytes; past it the request is refused unread. */
async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > max) throw new TooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new TooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function reply(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** Whether the command's token is the configured one, in time that tells neither where they differ nor its length. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const outcomeText = (command: Command, user: string, outcome: Outcome) => {
  const verb = command.action === 'accept' ? 'Approval' : 'Decline';
  const asked = `${verb} of ${command.questionId} (asked by ${escapeChat(user)})`;
  return outcome.taken
    ? `${asked}: taken, answered as ${escapeChat(outcome.by)}${outcome.decided ? '; the question is decided' : '; more answers are needed'}.`
    : `${asked}: refused (${outcome.code}): ${escapeChat(outcome.message)}`;
};

export async function startApprovalBot(config: BotConfig, log: Logger = jsonLogger()): Promise<ApprovalBot> {
  const timeoutMs = LIMITS.outboundTimeoutMs;
  const seen = new RecentIds(LIMITS.recentIds);
  /** Webhook ids being posted now: a retry that arrives meanwhile is asked to come back. */
  const posting = new Set<string>();
  const answering = new Set<Promise<void>>();
  const tokens = clientCredentials({ ...config, timeoutMs });
  const answers = answerApi({ url: config.answerApiUrl, tokens, timeoutMs });
  const chat = (text: string) => postToChat(config.chatWebhookUrl, text, timeoutMs);

  async function onWebhook(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req, LIMITS.webhookBodyBytes);
    let id: string;
    try {
      id = verifyWebhook(req.headers, body, config.webhookSecrets).id;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      log.warn('webhook refused', { reason: error.reason });
      return reply(res, 401, { error: error.reason });
    }
    if (seen.has(id)) {
      log.info('webhook repeated, dropped', { webhookId: id });
      return reply(res, 200, { ok: true, repeat: true });
    }
    if (posting.has(id)) return reply(res, 503, { error: 'busy' }, { 'retry-after': '1' });
    const event = JSON.parse(body.toString('utf8')) as QuestionEvent;
    const text = chatTextOf(event, config.answerApiUrl);
    posting.add(id);
    try {
      if (text !== undefined) await chat(text);
      seen.add(id);
      log.info(text !== undefined ? 'question posted to the chat' : 'event ignored', {
        webhookId: id,
        type: event.type,
        questionId: event.question.id,
      });
      reply(res, 200, { ok: true });
    } catch (error) {
      // Not marked seen: the service tries again, and the chat gets it then.
      log.error('chat post failed', { webhookId: id, error: (error as Error).message });
      reply(res, 502, { error: 'the chat did not take the post' });
    } finally {
      posting.delete(id);
    }
  }

  async function answerAndReport(command: Command, user: string) {
    let text: string;
    try {
      const outcome = await answers.answer(
        command.questionId,
        command.action,
        command.action === 'accept' ? command.note : undefined,
      );
      log.info(outcome.taken ? 'answer taken' : 'answer refused', {
        questionId: command.questionId,
        action: command.action,
        user,
        ...(outcome.taken ? { decided: outcome.decided } : { status: outcome.status, code: outcome.code }),
      });
      text = outcomeText(command, user, outcome);
    } catch (error) {
      log.error('answering failed', { questionId: command.questionId, error: (error as Error).message });
      text = `Could not answer ${command.questionId} (asked by ${escapeChat(user)}): the service could not be reached. Try again.`;
    }
    try {
      await chat(text);
    } catch (error) {
      log.error('chat post failed', { questionId: command.questionId, error: (error as Error).message });
    }
  }

  async function onCommand(req: IncomingMessage, res: ServerResponse) {
    const form = new URLSearchParams((await readBody(req, LIMITS.commandBodyBytes)).toString('utf8'));
    if (!sameToken(form.get('token') ?? '', config.commandToken)) {
      log.warn('command refused: wrong token');
      return reply(res, 401, { text: 'This command is not allowed here.' });
    }
    const command = parseCommand(form.get('text') ?? '');
    if (command === undefined) return reply(res, 200, { response_type: 'ephemeral', text: USAGE });
    if (answering.size >= LIMITS.commandsInFlight)
      return reply(res, 200, { response_type: 'ephemeral', text: 'Busy answering others; try again in a moment.' });
    const user = (form.get('user_name') ?? 'someone').slice(0, 80);
    log.info('command', { questionId: command.questionId, action: command.action, user });
    reply(res, 200, {
      response_type: 'ephemeral',
      text: `${command.action === 'accept' ? 'Approving' : 'Declining'} ${command.questionId}…`,
    });
    // answerAndReport catches everything it can meet, so this promise never rejects.
    const work = answerAndReport(command, user).finally(() => answering.delete(work));
    answering.add(work);
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://bot').pathname;
    const route =
      req.method === 'POST' && path === '/webhooks'
        ? onWebhook
        : req.method === 'POST' && path === '/commands'
          ? onCommand
          : undefined;
    if (req.method === 'GET' && path === '/healthz') return reply(res, 200, { ok: true });
    if (route === undefined) return reply(res, 404, { error: 'not found' });
    route(req, res).catch((error: unknown) => {
      if (error instanceof TooLarge) {
        log.warn('request refused: body too large', { path });
        reply(res, 413, { error: 'too large' }, { connection: 'close' });
        return;
      }
      log.error('request failed', { path, error: (error as Error).message });
      if (!res.headersSent) reply(res, 500, { error: 'internal error' });
    });
  });
  server.requestTimeout = 15_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  log.info('approval bot listening', { url, answerApi: config.answerApiUrl, clientId: config.clientId });
  return {
    url,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(answering);
    },
  };
}
