/**
 * The soak's addressed questions: a 2026-07-28 caller asks for a refund (demo tool refund_order),
 * whose question goes to the refund approvers, never to the caller, who comes back on each
 * state-only result until the result; the approver (a service with its own token) finds the
 * question in its inbox at the answer API and accepts it there, as question-windows.fault.test.ts
 * does. The answer API's 200 is the acknowledgement; a 409 after an attempt whose reply was lost
 * with its API also is (nobody else answers these questions, so the lost attempt was taken).
 */
import { pollPastStateOnly, sendLeg, type ToolCall } from '../test/faults/support/modern-exchange';
import { inbox, postAnswer } from '../test/faults/support/question-answers';
import { callerApis, onLiveApi, think, untilOnLiveApi, type SoakContext, type SoakTrack } from './soak-context';
import { endWith } from './soak-modern';

export async function runQuestion(ctx: SoakContext, n: number, track: SoakTrack): Promise<void> {
  const order = `S-${n}`;
  const amount = 10 + (n % 90);
  const call: ToolCall = {
    name: 'refund_order',
    arguments: { order, amount, reason: 'soak' },
    idempotencyKey: `soak-${n}`,
  };
  const apis = callerApis(ctx, n % 2);
  // The caller waits on its own while the approver answers; its legs are held up to QUESTION_HOLD_MS each.
  const result = (async () =>
    pollPastStateOnly(
      apis,
      call,
      await sendLeg(apis, call, ctx.trace, ctx.patienceMs),
      ctx.trace,
      2 * ctx.patienceMs,
    ))();
  result.catch(() => undefined); // awaited below; a rejection meanwhile is not unhandled

  const question = await untilOnLiveApi(ctx, `the question on ${order}`, async (url) =>
    (await inbox(url, await ctx.auth.approverHeaders())).find((q) => q.message.includes(`order ${order} `)),
  );
  const ref = (track.ref = `exchange:${question.exchangeId}`);
  await think(ctx);
  ctx.ledger.sending(ref, question.round);
  let lostAReply = false;
  const status = await onLiveApi(ctx, `the answer to ${order}'s question`, async (url) => {
    try {
      return await postAnswer(url, await ctx.auth.approverHeaders(), question, {
        action: 'accept',
        content: { note: `soak ${n}` },
      });
    } catch (error) {
      lostAReply = true;
      throw error;
    }
  });
  if (status !== 200 && !(status === 409 && lostAReply))
    return ctx.ledger.end('question', 'error reply', `the answer API answered HTTP ${status}`, ref);
  ctx.ledger.accept(ref, question.round);

  const reply = await result;
  endWith(ctx, reply, `Refunded ${amount} on order ${order}, approved by dana. Note: soak ${n}`, ref, 'question');
}
