/**
 * What the quota tests share: a handler set with a tool that asks once (so an exchange has an
 * answer leg) and quick read and write tools, the official clients of both eras with every HTTP
 * response they got recorded (to read the status and `Retry-After` an SDK error hides), what
 * Postgres and Temporal hold of a principal's exchanges, and a wait for room in the current minute,
 * so a burst of calls never straddles a window's end.
 */
import { randomUUID } from 'node:crypto';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Client as TemporalClient } from '@temporalio/client';
import type { Pool } from 'pg';
import { defineTool, inputRequired, type HandlerSet } from '@durable-mcp/handlers';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** Asks once ("go on?"), then completes: its second round is an answer leg. */
const ask = defineTool({
  tool: { name: 'ask', inputSchema: { type: 'object' } },
  taskSupport: 'optional',
  run(_args, ctx) {
    if (ctx.round === 1)
      return inputRequired({
        inputRequests: {
          go: inputRequired.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } }),
        },
      });
    return text('asked and answered');
  },
});

const quick = (name: string) =>
  defineTool({ tool: { name, inputSchema: { type: 'object' } }, run: () => text(`${name} done`) });

export const QUOTA_HANDLERS: HandlerSet = {
  name: 'quota-tests',
  tools: [ask, quick('read_record'), quick('write_record')],
};

/** What an HTTP response of a client said: its status, `Retry-After` and body. */
export interface Seen {
  status: number;
  retryAfter: string | null;
  body: string;
}

/**
 * A fetch that records each POST's response: its status and `Retry-After`, and the body of a
 * refusal (read from a clone, so the client reads it too; a stream's body is left to the client).
 */
function recordingFetch(seen: Seen[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if ((init?.method ?? 'GET') === 'POST')
      seen.push({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: response.ok ? '' : await response.clone().text(),
      });
    return response;
  };
}

const accept = { action: 'accept' as const, content: {} };

/** The official 2.x client, pinned to 2026-07-28, answering every elicitation; `seen` records its responses. */
export async function modernClient(url: string, authorization?: string) {
  const seen: Seen[] = [];
  const client = new Client(
    { name: 'quota-tests', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async () => accept as never);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      fetch: recordingFetch(seen),
      ...(authorization ? { requestInit: { headers: { authorization } } } : {}),
    }),
  );
  return { client, seen, call: (name: string) => client.callTool({ name, arguments: {} }) };
}

/**
 * The official 1.x client in a 2025-11-25 session over Streamable HTTP, answering every elicitation
 * once `answerWhen` resolves (at once without it).
 */
export async function legacyClient(url: string, authorization?: string, answerWhen?: Promise<void>) {
  const seen: Seen[] = [];
  const client = new LegacyClient({ name: 'quota-tests', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  let elicited = 0;
  client.setRequestHandler(ElicitRequestSchema, async () => {
    elicited += 1;
    await answerWhen;
    return accept;
  });
  await client.connect(
    new LegacyTransport(new URL(url), {
      fetch: recordingFetch(seen),
      ...(authorization ? { requestInit: { headers: { authorization } } } : {}),
    }),
  );
  return {
    client,
    seen,
    elicited: () => elicited,
    call: (name: string) => client.callTool({ name, arguments: {} }, undefined, { timeout: 30_000 }),
  };
}

/** The last response a client got with status 429, its body's JSON-RPC error read. */
export function lastRefusal(seen: Seen[]) {
  const refused = seen.filter((s) => s.status === 429).at(-1);
  if (!refused) throw new Error(`no 429 among ${JSON.stringify(seen.map((s) => s.status))}`);
  const body = JSON.parse(refused.body) as { error: { code: number; message: string; data: Record<string, unknown> } };
  return { ...refused, error: body.error };
}

/** The exchanges Postgres holds of `principal`. */
export async function exchangeRows(pool: Pool, principal: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM exchanges WHERE principal = $1', [
    principal,
  ]);
  return rows[0]!.n;
}

/** The workflows Temporal started for `principal` (its `McpPrincipal` search attribute). */
export async function workflowsOf(temporal: TemporalClient, principal: string): Promise<number> {
  const { count } = await temporal.workflow.count(`McpPrincipal = ${JSON.stringify(principal)}`);
  return count;
}

/**
 * Waits, if need be, until the current minute (by this machine's clock, which Postgres's on the same
 * machine shares) has at least `needS` seconds left, so what a test counts falls in one window.
 */
export async function roomInMinute(needS = 20): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needS * 1000) await new Promise((resolve) => setTimeout(resolve, left + 250));
}

/** A subject no other run of these tests used: its counters start at zero. */
export const freshSubject = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
