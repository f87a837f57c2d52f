/** The admin API over real HTTP, for the tests of /admin and of `durable-mcp exchanges`. */
import { randomBytes } from 'node:crypto';

export const TEST_ADMIN_TOKEN = `test-admin-${randomBytes(24).toString('hex')}`;

export interface AdminReply {
  status: number;
  headers: Headers;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read the JSON as they expect it
}

/** The /admin base of a service whose /mcp URL is `mcpUrl`. */
export const adminBase = (mcpUrl: string) => mcpUrl.replace(/\/mcp$/, '/admin');

export async function admin(
  mcpUrl: string,
  path: string,
  options: {
    method?: 'GET' | 'POST';
    token?: string | null;
    body?: unknown;
    authorization?: string;
    /** More headers to send (a proxy's X-Forwarded-For, say). */
    headers?: Record<string, string>;
  } = {},
): Promise<AdminReply> {
  const token = options.token === undefined ? TEST_ADMIN_TOKEN : options.token;
  const headers: Record<string, string> = { ...options.headers };
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${adminBase(mcpUrl)}${path}`, {
    method: options.method ?? 'GET',
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { text };
  }
  return { status: response.status, headers: response.headers, body };
}
