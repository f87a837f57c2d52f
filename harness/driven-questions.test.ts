import { answerer, defineTool, elicitFrom, inputRequired, inputResponse } from '@durable-mcp/handlers';
import { driveTool } from './drive';

const ISSUER = 'https://id.example.com';
const caller = { id: `${ISSUER}|caller`, issuer: ISSUER, subject: 'caller', scopes: [] };
const approve = defineTool({
  tool: { name: 'approve', inputSchema: { type: 'object' } },
  run(_args, ctx) {
    const approval = inputResponse(ctx.inputResponses, 'approval');
    if (approval.kind === 'elicit') {
      const who = ctx.answeredBy?.approval?.map((a) => `${a.principal.subject}:${a.action}:${a.via}`).join(',');
      return { content: [{ type: 'text', text: `${approval.action} (${who})` }] };
    }
    return inputRequired({
      inputRequests: {
        approval: elicitFrom(
          { eachOf: [answerer.group('finance'), answerer.group('legal')], excludeCaller: true, waitMs: 60_000 },
          { message: 'Approve?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
        ),
      },
    });
  },
});
const fin = { issuer: ISSUER, subject: 'fin', groups: ['finance'] };
const lee = { issuer: ISSUER, subject: 'lee', groups: ['legal'] };

describe('driveTool answering questions as their answerers', () => {
  it('runs the next round once each of two approvals is in, and tells the handler who answered', async () => {
    const asked = await driveTool(approve, 'approve', {}, { principal: caller });
    expect(asked.kind).toBe('ask');
    const half = await asked.answerAs(fin, { approval: { action: 'accept', content: { ok: true } } });
    expect(half.kind).toBe('ask');
    const done = await half.answerAs(lee, { approval: { action: 'accept', content: { ok: true } } });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'accept (fin:accept:harness,lee:accept:harness)' }]);
  });

  it('refuses the caller, an unaddressed answerer, bad content, a second answer and a late one', async () => {
    const asked = await driveTool(approve, 'approve', {}, { principal: caller });
    const refusalOf = async (step: Promise<{ refused: boolean; error?: { data?: unknown } }>) => {
      const s = await step;
      expect(s.refused).toBe(true);
      return s.error?.data as { refusal?: string; problems?: unknown[] };
    };
    const theCaller = { issuer: ISSUER, subject: 'caller', groups: ['finance'] };
    expect((await refusalOf(asked.answerAs(theCaller, { approval: { action: 'accept', content: {} } }))).refusal).toBe(
      'caller-excluded',
    );
    const outsider = { issuer: ISSUER, subject: 'sam', groups: ['sales'] };
    expect((await refusalOf(asked.answerAs(outsider, { approval: { action: 'accept', content: {} } }))).refusal).toBe(
      'not-addressed',
    );
    expect(
      (await refusalOf(asked.answerAs(fin, { approval: { action: 'accept', content: { ok: 'yes' } } }))).problems,
    ).toHaveLength(1);
    await asked.answerAs(fin, { approval: { action: 'accept', content: {} } });
    expect((await refusalOf(asked.answerAs(fin, { approval: { action: 'accept', content: {} } }))).refusal).toBe(
      'already-answered',
    );
    const late = await asked.answerAs(lee, { approval: { action: 'accept', content: {} } }, { afterMs: 61_000 });
    expect(late.refused).toBe(true);
    expect((late.error?.data as { refusal?: string }).refusal).toMatch(/late|expired/);
  });
});

describe('driveTool answering a question addressed to the caller', () => {
  const confirm = defineTool({
    tool: { name: 'confirm', inputSchema: { type: 'object' } },
    run(_args, ctx) {
      const confirmation = inputResponse(ctx.inputResponses, 'confirmation');
      if (confirmation.kind === 'elicit')
        return {
          content: [
            { type: 'text', text: `${confirmation.action} by ${ctx.answeredBy?.confirmation?.[0]?.principal.subject}` },
          ],
        };
      return inputRequired({
        inputRequests: {
          confirmation: elicitFrom(
            { anyOf: [answerer.caller()] },
            { message: 'Confirm?', requestedSchema: { type: 'object', properties: {} } },
          ),
        },
      });
    },
  });

  it("takes the caller's answer (signed in elsewhere), and nobody else's", async () => {
    // The caller's own key names its client; the person is who answers elsewhere.
    const viaApp = { ...caller, id: `${ISSUER}|caller|desk-app`, clientId: 'desk-app' };
    const asked = await driveTool(confirm, 'confirm', {}, { principal: viaApp });
    const someoneElse = await asked.answerAs(
      { issuer: ISSUER, subject: 'sam' },
      { confirmation: { action: 'accept', content: {} } },
    );
    expect((someoneElse.error?.data as { refusal?: string }).refusal).toBe('not-addressed');
    const done = await asked.answerAs('caller', { confirmation: { action: 'accept', content: {} } });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'accept by caller' }]);
  });

  it('admits the anonymous caller of a service without authorization', async () => {
    const asked = await driveTool(confirm, 'confirm', {});
    const done = await asked.answerAs('caller', { confirmation: { action: 'decline' } });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'decline by anonymous' }]);
  });
});

describe('driveTool answering as a service', () => {
  const toBot = defineTool({
    tool: { name: 'to_bot', inputSchema: { type: 'object' } },
    run(_args, ctx) {
      const approval = inputResponse(ctx.inputResponses, 'approval');
      if (approval.kind === 'elicit')
        return {
          content: [{ type: 'text', text: `${approval.action} by ${ctx.answeredBy?.approval?.[0]?.principal.id}` }],
        };
      return inputRequired({
        inputRequests: {
          approval: elicitFrom(
            { anyOf: [answerer.service('ticket-bot')] },
            { message: 'Approve?', requestedSchema: { type: 'object', properties: {} } },
          ),
        },
      });
    },
  });

  it('takes the service addressed, and never a person whose subject is its client id', async () => {
    const asked = await driveTool(toBot, 'to_bot', {}, { principal: caller });
    const person = await asked.answerAs({ issuer: ISSUER, subject: 'ticket-bot' }, { approval: { action: 'accept' } });
    expect(person.refused).toBe(true);
    expect((person.error?.data as { refusal?: string }).refusal).toBe('not-addressed');
    const bot = await asked.answerAs(
      { issuer: ISSUER, subject: 'ticket-bot', service: true },
      { approval: { action: 'accept' } },
    );
    expect(bot.result?.content).toEqual([{ type: 'text', text: `accept by ${ISSUER}|client:ticket-bot` }]);
  });
});

describe('driveTool answering a question that requires a sign-in', () => {
  const transfer = defineTool({
    tool: { name: 'transfer', inputSchema: { type: 'object' } },
    run(_args, ctx) {
      const approval = inputResponse(ctx.inputResponses, 'approval');
      if (approval.kind === 'elicit') return { content: [{ type: 'text', text: approval.action }] };
      return inputRequired({
        inputRequests: {
          approval: elicitFrom(
            { anyOf: [answerer.group('finance')], requireSignIn: { maxAgeS: 300, amr: ['mfa'] } },
            { message: 'Transfer?', requestedSchema: { type: 'object', properties: {} } },
          ),
        },
      });
    },
  });

  it('refuses an answerer without the sign-in (step-up-required) and takes one with it', async () => {
    const asked = await driveTool(transfer, 'transfer', {}, { principal: caller });
    const refusalOf = async (signIn?: { amr?: string[]; ageS?: number }) => {
      const step = await asked.answerAs({ ...fin, ...(signIn ? { signIn } : {}) }, { approval: { action: 'accept' } });
      return step.refused ? (step.error?.data as { refusal?: string }).refusal : 'taken';
    };
    expect(await refusalOf()).toBe('step-up-required');
    expect(await refusalOf({ amr: ['pwd'] })).toBe('step-up-required');
    expect(await refusalOf({ amr: ['mfa'], ageS: 301 })).toBe('step-up-required');
    const done = await asked.answerAs(
      { ...fin, signIn: { amr: ['pwd', 'mfa'], ageS: 60 } },
      { approval: { action: 'accept' } },
    );
    expect(done.result?.content).toEqual([{ type: 'text', text: 'accept' }]);
  });
});

describe('driveTool letting a question expire', () => {
  const decides = defineTool({
    tool: { name: 'decides', inputSchema: { type: 'object' } },
    run(_args, ctx) {
      if (ctx.expired)
        return {
          isError: true,
          content: [
            {
              type: 'text',
              text: `expired: ${ctx.expired.join(',')}; decided: ${Object.keys(ctx.inputResponses).join(',')} by ${Object.keys(ctx.answeredBy ?? {}).join(',')}`,
            },
          ],
        };
      const ask = (group: string) =>
        elicitFrom(
          { anyOf: [answerer.group(group)], waitMs: 60_000, onExpiry: 'handler' },
          { message: `${group}?`, requestedSchema: { type: 'object', properties: {} } },
        );
      return inputRequired({ inputRequests: { finance: ask('finance'), legal: ask('legal') } });
    },
  });

  it('runs the handler again with ctx.expired when its questions leave their expiry to it, keeping what was decided', async () => {
    const asked = await driveTool(decides, 'decides', {}, { principal: caller });
    const half = await asked.answerAs(fin, { finance: { action: 'accept', content: {} } });
    expect(half.kind).toBe('ask');
    const after = await half.expire();
    expect(after.ended).toBe(true);
    expect(after.result?.content).toEqual([{ type: 'text', text: 'expired: legal; decided: finance by finance' }]);
    const late = await asked.answerAs(lee, { legal: { action: 'accept', content: {} } });
    expect(late.refused).toBe(true);
  });

  it('ends the exchange as expired (-32001) when the questions say nothing of their expiry', async () => {
    const asked = await driveTool(approve, 'approve', {}, { principal: caller });
    const after = await asked.expire();
    expect(after.ended).toBe(true);
    expect(after.error?.code).toBe(-32001);
  });
});
