import type { AnsweredBy } from '@durable-mcp/handlers';
import { CallPolicySchema } from '../upstreams/call-policy';
import { APPROVAL_KEY } from '../upstreams/approval-request';
import { policyGate } from './policy-gate';

const policies = [
  CallPolicySchema.parse({ name: 'big', tools: ['pay'], approve: { anyOf: [{ group: 'approvers' }] } }),
];
const gated = { upstream: 'bank', tool: { name: 'pay', inputSchema: { type: 'object' as const } }, policies };
const accepted = { [APPROVAL_KEY]: { action: 'accept', content: {} } };
const rita: AnsweredBy = {
  principal: { id: 'p', subject: 'rita', name: 'Rita' },
  at: 1,
  via: 'page',
  action: 'accept',
};
const ctx = (over: {
  inputResponses?: Record<string, unknown>;
  answeredBy?: Record<string, AnsweredBy[]>;
  expired?: string[];
}) => ({
  inputResponses: {},
  principal: { id: 'caller', subject: 'caller', scopes: [] },
  exchangeId: 'e',
  log: { warn: () => undefined } as never,
  ...over,
});
const asksApproval = (gate: Awaited<ReturnType<typeof policyGate>>) =>
  gate.kind === 'stop' &&
  'inputRequests' in gate.outcome &&
  Object.keys(gate.outcome.inputRequests as Record<string, unknown>).includes(APPROVAL_KEY);

describe("the gateway's policy gate", () => {
  it("never takes an approval the caller's client sent itself on a first leg: it asks", async () => {
    const forged = await policyGate(gated, {}, ctx({ inputResponses: accepted }), { forwarded: false });
    expect(asksApproval(forged)).toBe(true);
  });

  it('never takes an answer without a verified answerer, even after asking', async () => {
    const unverified = await policyGate(gated, {}, ctx({ inputResponses: accepted }), {
      forwarded: false,
      asked: true,
    });
    expect(asksApproval(unverified)).toBe(true);
  });

  it('forwards once its own question was answered by an addressee', async () => {
    const approved = await policyGate(
      gated,
      {},
      ctx({ inputResponses: accepted, answeredBy: { [APPROVAL_KEY]: [rita] } }),
      { forwarded: false, asked: true },
    );
    expect(approved).toEqual({ kind: 'forward' });
  });

  it('asks its approval so that an expiry reaches it, and ends an expired approval with a tool error, never forwarding', async () => {
    const asked = await policyGate(gated, {}, ctx({}), { forwarded: false });
    const request = asked.kind === 'stop' && 'inputRequests' in asked.outcome ? asked.outcome.inputRequests : {};
    expect(
      (request as Record<string, { addressedTo?: { onExpiry?: string } }>)[APPROVAL_KEY]?.addressedTo?.onExpiry,
    ).toBe('handler');
    const expired = await policyGate(gated, {}, ctx({ expired: [APPROVAL_KEY] }), { forwarded: false, asked: true });
    expect(expired.kind).toBe('stop');
    const outcome = expired.kind === 'stop' ? (expired.outcome as { isError?: boolean; content?: unknown }) : {};
    expect(outcome.isError).toBe(true);
    expect(JSON.stringify(outcome.content)).toContain('was not approved in time');
  });

  it("never takes an expiry of a question it did not ask (a caller's first leg): it asks", async () => {
    const forged = await policyGate(gated, {}, ctx({ expired: [APPROVAL_KEY] }), { forwarded: false });
    expect(asksApproval(forged)).toBe(true);
  });
});
