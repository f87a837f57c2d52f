/**
 * The soak's 2026-07-28 exchanges, driven by the fault suite's clients
 * (test/faults/support/modern-exchange.ts, wizard-exchange.ts): every other one a greet (one ask),
 * the rest the onboarding wizard (three asks). Each first leg carries an idempotency key, so a
 * first leg sent again after its reply was lost with its API joins the exchange it started
 * instead of starting another. State-only results are followed, connection errors sent to the
 * other API, and every acknowledged answer goes in the ledger.
 */
import { answerGreet, askOf, greeting, isAsk, startCall, type ToolCall } from '../test/faults/support/modern-exchange';
import { answerStep, WIZARD, welcomeText } from '../test/faults/support/wizard-exchange';
import type { RpcReply } from '../test/support/raw-mcp';
import { callerApis, think, type SoakContext, type SoakTrack } from './soak-context';

const GREET: ToolCall = { name: 'greet', arguments: {} };

const textOf = (reply: RpcReply) => (reply.body.result?.content as Array<{ text?: string }> | undefined)?.[0]?.text;

/** Records how the exchange ended for its client: the expected text, another result, or an error reply. */
export function endWith(ctx: SoakContext, reply: RpcReply, expected: string, ref: string, kind: 'modern' | 'question') {
  if (reply.body.error)
    return ctx.ledger.end(kind, 'error reply', `${reply.body.error.code} ${reply.body.error.message}`, ref);
  const text = textOf(reply);
  if (text === expected) return ctx.ledger.end(kind, 'completed');
  ctx.ledger.end(kind, 'unexpected result', JSON.stringify(reply.body.result).slice(0, 200), ref);
}

export async function runModern(ctx: SoakContext, n: number, track: SoakTrack): Promise<void> {
  const apis = callerApis(ctx, n % 2);
  const name = `m${n}`;
  const keyed = (call: ToolCall): ToolCall => ({ ...call, idempotencyKey: `soak-${n}` });
  const keyRing = ctx.stack.keyRing;
  if (n % 2 === 0) {
    const ask = await startCall(apis, keyed(GREET), ctx.trace, keyRing, ctx.patienceMs);
    track.ref = `exchange:${ask.exchangeId}`;
    await think(ctx);
    ctx.ledger.sending(track.ref, 1);
    const reply = await answerGreet(apis, ask, name, ctx.trace, ctx.patienceMs);
    if (!reply.body.error) ctx.ledger.accept(track.ref, 1);
    return endWith(ctx, reply, greeting(name).content[0]!.text, track.ref, 'modern');
  }
  let ask = await startCall(apis, keyed(WIZARD), ctx.trace, keyRing, ctx.patienceMs);
  const ref = (track.ref = `exchange:${ask.exchangeId}`);
  for (const step of [1, 2, 3] as const) {
    await think(ctx);
    ctx.ledger.sending(ref, step);
    const reply = await answerStep(apis, ask, name, step, ctx.trace, ctx.patienceMs);
    if (reply.body.error) return endWith(ctx, reply, welcomeText(name), ref, 'modern');
    ctx.ledger.accept(ref, step);
    if (step === 3) return endWith(ctx, reply, welcomeText(name), ref, 'modern');
    if (!isAsk(reply)) return endWith(ctx, reply, `step ${step + 1}'s ask`, ref, 'modern');
    ask = askOf(reply, keyRing, WIZARD, `step ${step}'s answer`, apis.principal);
  }
}
