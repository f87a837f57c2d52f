/**
 * How `durable-mcp exchanges` talks to the admin API: one bounded HTTP request with the admin token, and
 * an error answer turned into the exit code (EXIT) and the one line the command prints.
 */
import type { DevStackFound } from '../dev/dev-stack-record';

export const EXIT = {
  ok: 0,
  /** The server answered with an error not listed below (400, 5xx). */
  failed: 1,
  usage: 2,
  /** No answer: the server is down or the URL is wrong. */
  unreachable: 3,
  /** 401: no token, or not the server's. */
  unauthorized: 4,
  /** 404: no such exchange, or the admin API is off (no ADMIN_TOKEN on the server). */
  notFound: 5,
  /** 409: the exchange to cancel had already ended. */
  alreadyEnded: 6,
} as const;

const REQUEST_TIMEOUT_MS = 60_000;

export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Io {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
  /** The `durable-mcp dev` stack this folder means (its API and token), if any (dev/dev-stack-record.ts). */
  devStack?: () => DevStackFound | undefined;
}

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

export async function request(
  base: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: object,
): Promise<ApiAnswer> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(
      EXIT.unreachable,
      `cannot reach ${base}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = {};
  }
  return { status: response.status, body: parsed };
}

/** Turns an error answer into the exit code and message it means. */
export function refusal(answer: ApiAnswer, what: string): CliError {
  const error = answer.body.error as { message?: string; parameter?: string } | undefined;
  const message = error?.message ?? `HTTP ${answer.status}`;
  switch (answer.status) {
    case 401:
      return new CliError(
        EXIT.unauthorized,
        `unauthorized: ${message} (set --token or ADMIN_TOKEN to the server's ADMIN_TOKEN)`,
      );
    case 404:
      return new CliError(
        EXIT.notFound,
        error ? `not found: ${message}` : `not found: is the admin API on? (the server needs ADMIN_TOKEN) [${what}]`,
      );
    case 409:
      return new CliError(EXIT.alreadyEnded, message);
    default:
      return new CliError(EXIT.failed, `${what} failed (HTTP ${answer.status}): ${message}`);
  }
}
