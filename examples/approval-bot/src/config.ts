/**
 * The bot's settings, from its environment. Every one is required but the port, the scope and the
 * answer API's resource; none is ever logged (the chat's URL, the command token, the client secret
 * and the webhook secrets are all credentials).
 */
export interface BotConfig {
  /** Where the bot listens (PORT, HOST: 8080 on 127.0.0.1 unless told). */
  port: number;
  host: string;
  /** WEBHOOK_SECRETS: the service's `whsec_…` secrets, comma-separated (two while they rotate). */
  webhookSecrets: string[];
  /** CHAT_WEBHOOK_URL: the chat's incoming webhook (Slack's shape: a POST of `{ "text": … }`). */
  chatWebhookUrl: string;
  /** COMMAND_TOKEN: the token the chat sends with each slash command (the form's `token` field). */
  commandToken: string;
  /** BOT_TOKEN_URL, BOT_CLIENT_ID, BOT_CLIENT_SECRET: the bot's own OAuth client (client credentials). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * ANSWER_API_RESOURCE_URL: the resource the bot's tokens are for, the service's answer API (its
   * own resource: a token for /mcp answers nothing there); ANSWER_API_URL unless told.
   */
  resource: string;
  /** BOT_SCOPE: what the bot asks for: the scopes its questions are addressed to, if any. */
  scope: string;
  /** ANSWER_API_URL: the answer API (`https://mcp.example.com/answers/api`). */
  answerApiUrl: string;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`${name} is required`);
  return value;
}

function httpUrl(name: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${name} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${name} must be http(s)`);
  return url.href;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): BotConfig {
  const port = Number(env.PORT ?? '8080');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('PORT must be a port number');
  const webhookSecrets = required(env, 'WEBHOOK_SECRETS')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (webhookSecrets.some((s) => !s.startsWith('whsec_'))) throw new Error('WEBHOOK_SECRETS: each starts with whsec_');
  const answerApiUrl = httpUrl('ANSWER_API_URL', required(env, 'ANSWER_API_URL')).replace(/\/$/, '');
  const resource = env.ANSWER_API_RESOURCE_URL?.trim()
    ? httpUrl('ANSWER_API_RESOURCE_URL', env.ANSWER_API_RESOURCE_URL.trim()).replace(/\/$/, '')
    : answerApiUrl;
  return {
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    webhookSecrets,
    chatWebhookUrl: httpUrl('CHAT_WEBHOOK_URL', required(env, 'CHAT_WEBHOOK_URL')),
    commandToken: required(env, 'COMMAND_TOKEN'),
    tokenUrl: httpUrl('BOT_TOKEN_URL', required(env, 'BOT_TOKEN_URL')),
    clientId: required(env, 'BOT_CLIENT_ID'),
    clientSecret: required(env, 'BOT_CLIENT_SECRET'),
    resource,
    scope: env.BOT_SCOPE?.trim() ?? '',
    answerApiUrl,
  };
}
