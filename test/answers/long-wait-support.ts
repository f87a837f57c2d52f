/**
 * What the long-wait tests of both eras share: the tools (an approval addressed to a holder of
 * refunds:approve, in three flavours, and a greeting whose second round takes its time), the
 * pending result as a client reads it, and probes of the stack: Dana approving an order, the
 * questions asked about it, an exchange's state.
 */
import { answerer, defineTool, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';
import type { OAuthStack } from '../support/oauth-stack';
import { JOINED_IDENTICAL_CALLS } from '../support/test-service';
import { until } from '../support/until';
import { startAnsweringStack, type AnsweringStack } from './answering-stack';
import { refundTool } from './refund-tool';

const approvers = () => ({ anyOf: [answerer.scope('refunds:approve')], excludeCaller: true, waitMs: 3_600_000 });
/** Asks its caller's client a name, then takes its time with the answer (a slow second round). */
const SLOW_ROUND_MS = 3_000;
const slowGreet = defineTool({
  tool: { name: 'slow_greet', inputSchema: { type: 'object', properties: {} } },
  async run(_args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'name');
    if (answer.kind === 'elicit' && answer.action === 'accept') {
      await new Promise((resolve) => setTimeout(resolve, SLOW_ROUND_MS));
      return { content: [{ type: 'text', text: `Hello, ${String(answer.content?.name)}!` }] };
    }
    return inputRequired({
      inputRequests: {
        name: inputRequired.elicit({
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        }),
      },
    });
  },
});

export const longWaitHandlers: HandlerSet = {
  name: 'refunds',
  tools: [
    slowGreet,
    refundTool('refund', approvers),
    refundTool('refund_strict', approvers, { longWait: 'error' }),
    refundTool('refund_each', approvers, { identicalCalls: 'separate' }),
  ],
};

/** The file's stack, serving these tools with `env` on the service's defaults for joins: started before its tests, closed after. */
export function useLongWaitStack(env: Record<string, string>): () => OAuthStack {
  let answering: AnsweringStack | undefined;
  beforeAll(async () => {
    answering = await startAnsweringStack(longWaitHandlers, { ...env, ...JOINED_IDENTICAL_CALLS });
  }, 120_000);
  afterAll(async () => {
    await answering?.close();
  });
  return () => {
    if (!answering) throw new Error('the long-wait stack is not started yet');
    return answering.stack;
  };
}

export interface PendingMeta {
  status: string;
  handle: string;
  tool: string;
  waitingFor: string;
  until?: string;
  awaitTool: string;
}
export interface ToolResult {
  content: Array<{ type: string; text: string }>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}
export const pendingOf = (result: unknown) =>
  (result as ToolResult)._meta?.['io.durable-mcp/pending'] as PendingMeta | undefined;

export function longWaitProbes(stack: () => OAuthStack) {
  const answersUrl = () => stack().service.url.replace(/\/mcp$/, '/answers/api/questions');

  /** Dana, holding refunds:approve, answers the question on `order`. */
  async function danaApproves(order: string) {
    const authorization = await stack().serviceBearer('dana', 'refunds:approve');
    const headers = { authorization, 'content-type': 'application/json' };
    const question = await until(`the question on ${order}`, async () => {
      const listed = (await (await fetch(answersUrl(), { headers })).json()) as {
        questions: Array<{ id: string; message: string; shownDigest: string }>;
      };
      return listed.questions.find((q) => q.message === `Refund ${order}?`);
    });
    const res = await fetch(`${answersUrl()}/${question.id}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'accept', content: { note: 'ok' }, shownDigest: question.shownDigest }),
    });
    expect(res.status).toBe(200);
  }

  /** The questions asked about `order`, whatever their status. */
  async function questionsOn(order: string) {
    const { rows } = await stack().service.pool.query<{ id: string; exchange_id: string }>(
      `SELECT q.id, q.exchange_id FROM questions q JOIN exchanges e ON e.id = q.exchange_id
        WHERE e.target LIKE 'refund%' AND q.message = $1`,
      [`Refund ${order}?`],
    );
    return rows;
  }

  /** The exchange's row and its questions' statuses. */
  async function exchangeState(exchangeId: string) {
    const { pool } = stack().service;
    const { rows } = await pool.query<{ status: string }>(`SELECT status FROM exchanges WHERE id = $1`, [exchangeId]);
    const questions = await pool.query<{ status: string }>(`SELECT status FROM questions WHERE exchange_id = $1`, [
      exchangeId,
    ]);
    return { status: rows[0]?.status, questions: questions.rows.map((q) => q.status) };
  }

  return { danaApproves, questionsOn, exchangeState };
}
