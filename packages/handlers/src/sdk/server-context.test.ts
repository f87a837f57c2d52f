/** The SDK-shaped `ctx` a tool gets, from what durable-mcp gives a round. */
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import { testContext } from '@durable-mcp/testing';
import { serverContext } from './server-context';

describe('the ctx of a round', () => {
  it('names the round, carries the client capabilities and the signal, and has no session or HTTP request', async () => {
    const signal = new AbortController().signal;
    const ctx = await serverContext(
      testContext({ exchangeId: 'ex-1', round: 3, signal, clientCapabilities: { elicitation: {} } }),
    );
    expect(ctx.mcpReq).toMatchObject({
      id: 'ex-1:3',
      method: 'tools/call',
      _meta: { progressToken: 'ex-1:3' },
      envelope: { [CLIENT_CAPABILITIES_META_KEY]: { elicitation: {} } },
    });
    expect(ctx.mcpReq.signal).toBe(signal);
    expect(ctx.sessionId).toBeUndefined();
    expect(ctx.http?.req).toBeUndefined();
  });

  it('has no inputResponses on round 1, and only bare results after, naming the keys it dropped', async () => {
    expect((await serverContext(testContext())).mcpReq.inputResponses).toBeUndefined();
    const ctx = await serverContext(
      testContext({
        round: 2,
        inputResponses: {
          confirm: { action: 'accept', content: { confirm: true } },
          wrapped: { method: 'elicitation/create', result: { action: 'accept' } },
          odd: 'text',
        },
      }),
    );
    expect(ctx.mcpReq.inputResponses).toEqual({ confirm: { action: 'accept', content: { confirm: true } } });
    expect(ctx.mcpReq.droppedInputResponseKeys).toEqual(['wrapped', 'odd']);
  });

  it('gives the state as returned without a verify hook, and as verified with one', async () => {
    expect((await serverContext(testContext({ requestState: 'step-2' }))).mcpReq.requestState()).toBe('step-2');
    const verify = jest.fn(async (state: string) => ({ decoded: state }));
    const ctx = await serverContext(testContext({ requestState: 'step-2' }), verify);
    expect(ctx.mcpReq.requestState()).toEqual({ decoded: 'step-2' });
    expect(verify).toHaveBeenCalledWith('step-2', ctx);
  });

  it('describes the caller as authInfo, with no token', async () => {
    const principal = { id: 'p-1', subject: 'alice', clientId: 'desk', issuer: 'https://idp', scopes: ['deploy'] };
    const ctx = await serverContext(testContext({ principal }));
    expect(ctx.http?.authInfo).toEqual({
      token: '',
      clientId: 'desk',
      scopes: ['deploy'],
      extra: { subject: 'alice', issuer: 'https://idp', principalId: 'p-1' },
    });
  });

  it('delivers progress and log notifications, and drops and logs any other', async () => {
    const progress = jest.fn(async () => undefined);
    const sendLog = jest.fn(async () => undefined);
    const warn = jest.fn();
    const closeStream = jest.fn(async () => undefined);
    const log = { ...testContext().log, warn };
    const ctx = await serverContext(testContext({ progress, sendLog, log, closeStream }));
    await ctx.mcpReq.notify({
      method: 'notifications/progress',
      params: { progressToken: 't', progress: 1, total: 4 },
    });
    await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'error', data: 'x', logger: 'db' } });
    await ctx.mcpReq.notify({ method: 'notifications/resources/updated', params: { uri: 'file:///a' } });
    ctx.http?.closeSSE?.();
    expect(progress).toHaveBeenCalledWith(1, 4, undefined);
    expect(sendLog).toHaveBeenCalledWith('error', 'x', 'db');
    expect(warn).toHaveBeenCalledWith(
      { method: 'notifications/resources/updated' },
      expect.stringContaining('dropped'),
    );
    expect(closeStream).toHaveBeenCalled();
  });

  it('refuses server-to-client requests', async () => {
    const ctx = await serverContext(testContext());
    await expect(ctx.mcpReq.send({ method: 'roots/list' })).rejects.toThrow(/'roots\/list' cannot be sent/);
    await expect(ctx.mcpReq.requestSampling({ messages: [], maxTokens: 1 })).rejects.toThrow(
      /'sampling\/createMessage'/,
    );
  });
});
