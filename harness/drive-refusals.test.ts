// What a client's retry is refused with, in the harness as in the service: each expected error is
// built by the function the API's answering leg builds it with (services/api/src/exchange-legs
// answer-leg.ts, url-replies.ts, start-leg.ts `checkRoundInput`), never written out here.
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse } from '@durable-mcp/handlers';
import { callerRepliesTo } from '../lib/exchange-rules/addressed-leg';
import { answeredDifferently } from '../lib/exchange-rules/leg-rules';
import { roundInputTooLarge } from '../lib/exchange-rules/round-input-size';
import { fromOutcome, invalidRequestState, questionsNotForCaller } from '../lib/protocol/error-catalog';
import { exchangeExpired } from '../lib/protocol/exchange-errors';
import { RpcError } from '../lib/protocol/rpc-error';
import { INVALID_PARAMS, driveTool, type Step } from '.';
import { MAX_ROUND_INPUT_BYTES } from './drive-steps';

const ISSUER = 'https://id.example.com';
const caller = { id: `${ISSUER}|caller`, issuer: ISSUER, subject: 'caller', scopes: [] };
const form = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };

/** One question, to the caller's client or (`to`) to someone the ask addresses. */
const approval = (name: string, to?: Parameters<typeof elicitFrom>[0]) =>
  defineTool({
    tool: { name, inputSchema: { type: 'object' } },
    run(_args, ctx) {
      const answer = inputResponse(ctx.inputResponses, 'approval');
      if (answer.kind === 'elicit') return { content: [{ type: 'text', text: answer.action }] };
      const request = { message: 'Approve?', requestedSchema: form };
      return inputRequired({
        inputRequests: {
          approval: to ? elicitFrom(to, request) : { method: 'elicitation/create', params: request },
        },
      });
    },
  });
const toClient = approval('to_client');
const toFinance = approval('to_finance', { anyOf: [answerer.group('finance')], waitMs: 60_000 });
const toCaller = approval('to_caller', { anyOf: [answerer.caller()], waitMs: 60_000 });

const accept = { action: 'accept' as const, content: { ok: true } };
const elicitation = { capabilities: { elicitation: {} } };
const urlElicitation = { elicitation: { form: {}, url: {} } };

/** The error the API's refusal of the caller's replies to `step`'s addressed ask carries. */
function callerRepliesRefusal(step: Step<unknown>, capabilities: Record<string, unknown>, responses: object) {
  const ask = {
    exchangeId: step.exchangeId,
    round: step.round,
    outcome: { kind: 'ask' as const, inputRequests: step.ask!.inputRequests },
    recordedAt: new Date(),
  };
  try {
    callerRepliesTo(ask, capabilities, responses as Record<string, unknown>, true);
  } catch (error) {
    if (error instanceof RpcError) return error.toJson();
    throw error;
  }
  throw new Error('the API takes these replies');
}

describe("a client's retry, refused as the service refuses it", () => {
  it("refuses the caller's client answering a question addressed to someone else with -32602", async () => {
    const asked = await driveTool(toFinance, 'to_finance', {}, { ...elicitation, principal: caller });
    const refused = await asked.answer({ approval: accept });
    expect(refused).toMatchObject({ refused: true, ended: false, kind: 'error', round: 1 });
    expect(refused.error).toEqual(questionsNotForCaller().toJson());
    expect(refused.error).toMatchObject({ code: INVALID_PARAMS, data: { path: 'params.inputResponses' } });
    // Nothing was taken: the question still waits for its answerer.
    const done = await asked.answerAs({ issuer: ISSUER, subject: 'fin', groups: ['finance'] }, { approval: accept });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'accept' }]);
  });

  it('refuses it after the question expired too: the addressed ask is checked first', async () => {
    const asked = await driveTool(toFinance, 'to_finance', {}, { ...elicitation, principal: caller });
    const refused = await asked.answer({ approval: accept }, { afterMs: 61_000 });
    expect(refused.error).toEqual(questionsNotForCaller().toJson());
  });

  it("refuses content in a URL-capable client's reply to a question for its caller, naming the key", async () => {
    const asked = await driveTool(toCaller, 'to_caller', {}, { capabilities: urlElicitation, principal: caller });
    const refused = await asked.answer({ approval: accept });
    expect(refused.error).toEqual(callerRepliesRefusal(asked, urlElicitation, { approval: accept }));
    expect(refused.error?.message).toMatch(/inputResponses\.approval/);
  });

  it("takes a URL-capable client's decline as its caller's answer, and an accept as consent only", async () => {
    const asked = await driveTool(toCaller, 'to_caller', {}, { capabilities: urlElicitation, principal: caller });
    const consent = await asked.answer({ approval: { action: 'accept' } });
    expect(consent).toMatchObject({ kind: 'ask', round: 1, refused: false });
    const declined = await asked.answer({ approval: { action: 'decline' } });
    expect(declined.result?.content).toEqual([{ type: 'text', text: 'decline' }]);
  });

  it('refuses an answer past the round deadline with the expiry the API builds', async () => {
    const asked = await driveTool(toClient, 'to_client', {}, { ...elicitation, roundTimeoutMs: 1_000 });
    const late = await asked.answer({ approval: accept }, { afterMs: 1_001 });
    expect(late.error).toEqual(fromOutcome(exchangeExpired(asked.exchangeId, 1, 1_000)).toJson());
  });

  it('refuses an altered requestState, and one of another exchange, as invalid', async () => {
    const asked = await driveTool(toClient, 'to_client', {}, elicitation);
    const other = await driveTool(toClient, 'to_client', {}, elicitation);
    const tampered = `${asked.ask!.requestState.slice(0, -2)}xx`;
    expect((await asked.answer({ approval: accept }, { requestState: tampered })).error).toEqual(
      invalidRequestState().toJson(),
    );
    expect((await asked.answer({ approval: accept }, { requestState: other.ask!.requestState })).error).toEqual(
      invalidRequestState().toJson(),
    );
  });

  it('refuses different answers to a round already answered', async () => {
    const asked = await driveTool(toClient, 'to_client', {}, elicitation);
    await asked.answer({ approval: accept });
    const different = await asked.answer({ approval: { action: 'decline' } });
    expect(different.error).toEqual(answeredDifferently(1).toJson());
  });

  it("refuses answers over the round-input budget at the service's default", async () => {
    const asked = await driveTool(toClient, 'to_client', {}, elicitation);
    const big = { action: 'accept', content: { ok: true, note: 'x'.repeat(MAX_ROUND_INPUT_BYTES) } };
    const refused = await asked.answer({ approval: big });
    const expected = roundInputTooLarge(
      {
        params: { name: 'to_client', arguments: {} },
        answers: { approval: big },
        clientCapabilities: elicitation.capabilities,
      },
      MAX_ROUND_INPUT_BYTES,
    );
    expect(expected).toBeDefined();
    expect(refused.error).toEqual(expected!.toJson());
  });
});
