import { demoHandlers } from '../built-in-handlers/demo';
import { greet } from '../built-in-handlers/demo/greet';
import { defineTool, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';
import { InvalidHandlerSet } from '../cli/start/handler-set-check';
import {
  EXCHANGE_EXPIRED,
  INVALID_PARAMS,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  ROUND_CAP_EXCEEDED,
  drivePrompt,
  driveResource,
  driveTool,
} from '.';

const elicitation = { capabilities: { elicitation: {} } };

/** One question to a person, the amount carried in the handler's own state; progress and a log line on the way. */
const approveRefund = defineTool({
  tool: {
    name: 'approve_refund',
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
  },
  async run(args, ctx) {
    await ctx.progress(ctx.round, 2, `round ${ctx.round}`);
    const approval = inputResponse(ctx.inputResponses, 'approval');
    if (approval.kind === 'elicit') {
      await ctx.sendLog('info', { decided: approval.action });
      const approved = approval.action === 'accept' && approval.content?.ok === true;
      return {
        content: [
          { type: 'text', text: approved ? `Refunded ${ctx.requestState}` : 'Refund declined' },
          { type: 'text', text: `keys seen: ${Object.keys(ctx.inputResponses).join(',')}` },
        ],
      };
    }
    return inputRequired({
      inputRequests: {
        approval: inputRequired.elicit({
          message: `Refund ${String(args.amount)}?`,
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        }),
      },
      requestState: String(args.amount),
    });
  },
});

/** Asks again every round, whatever it is told. */
const askForever = defineTool({
  tool: { name: 'ask_forever', inputSchema: { type: 'object' } },
  run: (_args, ctx) =>
    inputRequired({
      inputRequests: {
        [`q${ctx.round}`]: inputRequired.elicit({
          message: `Question ${ctx.round}`,
          requestedSchema: { type: 'object', properties: {} },
        }),
      },
    }),
});

/** Asks a person first, then the client's model. */
const personThenModel = defineTool({
  tool: { name: 'person_then_model', inputSchema: { type: 'object' } },
  run(_args, ctx) {
    if (ctx.round === 1)
      return inputRequired({
        inputRequests: {
          go: inputRequired.elicit({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } }),
        },
      });
    if (ctx.round === 2)
      return inputRequired({
        inputRequests: {
          draft: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Draft it' } }],
            maxTokens: 50,
          }),
        },
      });
    return { content: [{ type: 'text', text: 'done' }] };
  },
});

const throws = defineTool({
  tool: { name: 'throws', inputSchema: { type: 'object' } },
  run: () => {
    throw new Error('the ledger is down');
  },
});

const tools: HandlerSet = { name: 'refunds', tools: [approveRefund, askForever, personThenModel, throws] };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('driveTool', () => {
  it('drives a demo tool through its ask to its result', async () => {
    const run = await driveTool(demoHandlers, 'greet', { greeting: 'Hi' }, elicitation);
    expect(run.kind).toBe('ask');
    expect(run.round).toBe(1);
    expect(run.ask?.inputRequests.name?.method).toBe('elicitation/create');
    const next = await run.answer({ name: accept({ name: 'Ada' }) });
    expect(next).toMatchObject({ kind: 'complete', round: 2, ended: true, refused: false });
    expect(next.result?.content).toEqual([{ type: 'text', text: 'Hi, Ada!' }]);
  });

  it('takes one tool, or an array of tools, as its handler set', async () => {
    expect((await driveTool(greet, 'greet', {}, elicitation)).kind).toBe('ask');
    expect((await driveTool([greet, throws], 'throws')).result?.isError).toBe(true);
  });

  it("carries the handler's state to its next round sealed: the client sees only the service's requestState", async () => {
    // An amount long enough that the sealed token (random bytes in base64url) cannot hold it by chance.
    const run = await driveTool(tools, 'approve_refund', { amount: 4072319958 }, elicitation);
    expect(run.ask?.handlerState).toBe('4072319958');
    expect(run.ask?.requestState).not.toContain('4072319958');
    expect(run.ask?.requestState).toMatch(/^test\.[A-Za-z0-9_-]+$/);
    const next = await run.answer({ approval: accept({ ok: true }) });
    expect(next.result?.content[0]).toEqual({ type: 'text', text: 'Refunded 4072319958' });
  });

  it('collects what the handler reports during each round', async () => {
    const run = await driveTool(tools, 'approve_refund', { amount: 40 }, elicitation);
    expect(run.notifications).toEqual([{ kind: 'progress', progress: 1, total: 2, message: 'round 1' }]);
    const next = await run.answer({ approval: { action: 'decline' } });
    expect(next.notifications).toEqual([
      { kind: 'progress', progress: 2, total: 2, message: 'round 2' },
      { kind: 'log', level: 'info', data: { decided: 'decline' }, logger: undefined },
    ]);
  });

  it('drops answers under keys the ask did not ask for, and says which', async () => {
    const run = await driveTool(tools, 'approve_refund', { amount: 5 }, elicitation);
    const next = await run.answer({ approval: accept({ ok: true }), extra: accept({ ok: true }) });
    expect(next.ignoredKeys).toEqual(['extra']);
    expect(next.result?.content[1]).toEqual({ type: 'text', text: 'keys seen: approval' });
  });

  it("refuses a tampered requestState with the service's -32602, and the ask can still be answered", async () => {
    const run = await driveTool(tools, 'approve_refund', { amount: 40 }, elicitation);
    const token = run.ask!.requestState;
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const refused = await run.answer({ approval: accept({ ok: true }) }, { requestState: tampered });
    expect(refused).toMatchObject({ kind: 'error', refused: true, ended: false });
    expect(refused.error).toEqual({ code: INVALID_PARAMS, message: 'Invalid or expired requestState' });
    await expect(refused.answer({})).rejects.toThrow(/refused/);
    expect((await run.answer({ approval: accept({ ok: true }) })).kind).toBe('complete');
  });

  it("refuses another exchange's requestState", async () => {
    const one = await driveTool(tools, 'approve_refund', { amount: 40 }, elicitation);
    const other = await driveTool(tools, 'approve_refund', { amount: 40 }, elicitation);
    const refused = await one.answer({ approval: accept({ ok: true }) }, { requestState: other.ask!.requestState });
    expect(refused.error?.message).toBe('Invalid or expired requestState');
  });

  it('gives the same answers sent again the same outcome, and refuses different ones', async () => {
    const run = await driveTool(tools, 'approve_refund', { amount: 40 }, elicitation);
    const first = await run.answer({ approval: accept({ ok: true }) });
    const again = await run.answer({ approval: accept({ ok: true }) });
    expect(again.result).toEqual(first.result);
    expect(again.notifications).toEqual([]); // not run twice
    const different = await run.answer({ approval: { action: 'decline' } });
    expect(different.error).toEqual({
      code: INVALID_PARAMS,
      message: 'Round 1 of this exchange was already answered with different inputResponses',
    });
  });

  it('ends the exchange at the round cap with the service error', async () => {
    let step = await driveTool(tools, 'ask_forever', {}, { ...elicitation, maxRounds: 2 });
    expect(step.asks).toBe(1);
    step = await step.answer({ q1: accept({}) });
    expect(step.asks).toBe(2);
    step = await step.answer({ q2: accept({}) });
    expect(step).toMatchObject({ kind: 'error', round: 3, ended: true, refused: false });
    expect(step.error).toEqual({
      code: ROUND_CAP_EXCEEDED,
      message: 'Exchange ended: the handler asked for input more than 2 times',
      data: { exchangeId: step.exchangeId, maxRounds: 2 },
    });
  });

  it("caps rounds at the service's default of 8 asks", async () => {
    let step = await driveTool(tools, 'ask_forever', {}, elicitation);
    for (let i = 0; i < 20 && step.kind === 'ask'; i += 1) step = await step.answer({ [`q${step.round}`]: accept({}) });
    expect(step.round).toBe(9);
    expect(step.error?.code).toBe(ROUND_CAP_EXCEEDED);
  });

  it('refuses an ask the client did not declare the capability for', async () => {
    const step = await driveTool(tools, 'approve_refund', { amount: 40 });
    expect(step).toMatchObject({ kind: 'error', ended: true });
    expect(step.error).toEqual({
      code: MISSING_REQUIRED_CLIENT_CAPABILITY,
      message: 'Client lacks capabilities this request requires: elicitation',
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
  });

  it('checks each round against the capabilities of the leg that answered', async () => {
    const run = await driveTool(tools, 'person_then_model', {}, elicitation);
    const refused = await run.answer({ go: accept({}) });
    expect(refused.error?.code).toBe(MISSING_REQUIRED_CLIENT_CAPABILITY);
    expect(refused.error?.data).toEqual({ requiredCapabilities: { sampling: {} } });

    const other = await driveTool(tools, 'person_then_model', {}, elicitation);
    const asked = await other.answer({ go: accept({}) }, { capabilities: { elicitation: {}, sampling: {} } });
    expect(asked.ask?.inputRequests.draft?.method).toBe('sampling/createMessage');
  });

  it("ends an exchange whose answer comes after the round timeout with the service's -32001", async () => {
    const run = await driveTool(tools, 'approve_refund', { amount: 40 }, { ...elicitation, roundTimeoutMs: 1_000 });
    const late = await run.answer({ approval: accept({ ok: true }) }, { afterMs: 1_001 });
    expect(late).toMatchObject({ kind: 'error', round: 2, ended: true });
    expect(late.error).toEqual({
      code: EXCHANGE_EXPIRED,
      message: 'Exchange expired: the answers to round 1 did not arrive within 1000 ms',
      data: { exchangeId: run.exchangeId, round: 1, roundTimeoutMs: 1_000 },
    });
  });

  it('takes an answer just within the round timeout', async () => {
    const run = await driveTool(tools, 'approve_refund', { amount: 40 }, { ...elicitation, roundTimeoutMs: 1_000 });
    expect((await run.answer({ approval: accept({ ok: true }) }, { afterMs: 1_000 })).kind).toBe('complete');
  });

  it("answers arguments that fail the tool's inputSchema with the service's error result", async () => {
    const step = await driveTool(tools, 'approve_refund', { amount: 'forty' }, elicitation);
    expect(step).toMatchObject({ kind: 'complete', ended: true });
    expect(step.result?.isError).toBe(true);
    expect(JSON.stringify(step.result?.content)).toContain('amount');
  });

  it('refuses an unknown tool', async () => {
    const step = await driveTool(tools, 'nope');
    expect(step).toMatchObject({ kind: 'error', refused: true });
    expect(step.error).toEqual({ code: INVALID_PARAMS, message: 'Unknown tool: nope', data: { path: 'params.name' } });
  });

  it("turns a handler's throw into the tool error result the service gives", async () => {
    const step = await driveTool(tools, 'throws');
    expect(step.result).toEqual({ content: [{ type: 'text', text: 'the ledger is down' }], isError: true });
  });

  it('hands round 1 the answers the first call carried', async () => {
    const step = await driveTool(
      tools,
      'approve_refund',
      { amount: 1 },
      {
        ...elicitation,
        inputResponses: { approval: { action: 'decline' } },
      },
    );
    expect(step.result?.content[0]).toEqual({ type: 'text', text: 'Refund declined' });
  });

  it('refuses a handler set the service would refuse to start with', async () => {
    const dup: HandlerSet = { name: 'dup', tools: [greet, greet] };
    await expect(driveTool(dup, 'greet')).rejects.toThrow(InvalidHandlerSet);
  });
});

describe('drivePrompt and driveResource', () => {
  it('drives a demo prompt through its ask', async () => {
    const run = await drivePrompt(demoHandlers, 'incident_brief', { service: 'checkout' }, elicitation);
    expect(run.ask?.inputRequests.severity?.method).toBe('elicitation/create');
    const next = await run.answer({ severity: accept({ severity: 'sev1' }) });
    expect(next.kind).toBe('complete');
    expect(JSON.stringify(next.result?.messages)).toContain('checkout');
  });

  it("refuses a prompt without its required argument with the service's -32602", async () => {
    const step = await drivePrompt(demoHandlers, 'incident_brief', {}, elicitation);
    expect(step.error).toEqual({
      code: INVALID_PARAMS,
      message: 'Missing required argument: service',
      data: { path: 'params.arguments.service' },
    });
  });

  it('reads a resource', async () => {
    const uri = demoHandlers.resources![0]!.resource.uri;
    const step = await driveResource(demoHandlers, uri, elicitation);
    expect(step.ended).toBe(true);
    expect(step.result?.contents[0]?.uri).toBe(uri);
  });
});
