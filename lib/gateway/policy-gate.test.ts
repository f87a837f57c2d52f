import type { AnsweredBy } from '@durable-mcp/handlers';
import { CallPolicySchema, type CallPolicy } from '../upstreams/call-policy';
import { APPROVAL_KEY } from '../upstreams/approval-request';
import { policyGate } from './policy-gate';
import type { DecisionRecord } from './decision-record';
import type { GatewayDecisionFacts } from '../evidence/gateway-decision-entry';

const policies = [
  CallPolicySchema.parse({ name: 'big', tools: ['pay'], approve: { anyOf: [{ group: 'approvers' }] } }),
];
const gated = {
  upstream: 'bank',
  target: 'bank_pay',
  tool: { name: 'pay', inputSchema: { type: 'object' as const } },
  policies,
};
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
  round: 1,
  log: { warn: () => undefined, info: () => undefined, error: () => undefined } as never,
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

/** A record in memory, keyed as the store keys it (exchange, round): the first recorded stands. */
function memoryRecord(preset: GatewayDecisionFacts[] = []) {
  const byKey = new Map(preset.map((facts) => [`${facts.exchange}/${facts.round}`, facts]));
  const recorded: GatewayDecisionFacts[] = [];
  const record: DecisionRecord = {
    read: (exchange, round) => Promise.resolve(byKey.get(`${exchange}/${round}`)),
    record(facts) {
      const key = `${facts.exchange}/${facts.round}`;
      if (!byKey.has(key)) {
        byKey.set(key, facts);
        recorded.push(facts);
      }
      return Promise.resolve(byKey.get(key)!);
    },
  };
  return { record, recorded };
}

const denyAll = [CallPolicySchema.parse({ name: 'closed', tools: ['pay'], deny: 'Closed today.' })];
// A decision point nobody listens at: asked, it fails and its policy fails closed.
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const withSecret = (policy: CallPolicy): CallPolicy =>
  'decide' in policy ? { ...policy, decide: { ...policy.decide, secret: SECRET } as typeof policy.decide } : policy;
const unreachablePoint = [
  withSecret(
    CallPolicySchema.parse({
      name: 'desk',
      tools: ['pay'],
      decide: { url: 'http://127.0.0.1:9/evaluate', secretEnv: 'DESK', timeoutMs: 500 },
    }),
  ),
];

const textOf = (gate: Awaited<ReturnType<typeof policyGate>>) =>
  gate.kind === 'stop' ? (gate.outcome as { content: Array<{ text: string }> }).content[0]!.text : undefined;

describe("the gateway's decisions as evidence", () => {
  it('records a denial, bound to the call, the caller and the policy, before the caller reads it', async () => {
    const { record, recorded } = memoryRecord();
    const gate = await policyGate({ ...gated, policies: denyAll, decisions: record }, { amount: 5 }, ctx({}), {
      forwarded: false,
    });
    expect(textOf(gate)).toBe(
      `The gateway's policy "closed" does not allow the call to bank's tool "pay": Closed today.`,
    );
    expect(recorded).toEqual([
      expect.objectContaining({
        kind: 'gateway-decision',
        exchange: 'e',
        round: 1,
        call: expect.objectContaining({
          target: 'bank_pay',
          upstream: 'bank',
          tool: 'pay',
          caller: { id: 'caller', subject: 'caller' },
        }),
        policy: 'closed',
        decision: { outcome: 'deny', reason: 'Closed today.' },
      }),
    ]);
  });

  it('records a failed decision point as its fail-closed denial, naming its URL and why', async () => {
    const { record, recorded } = memoryRecord();
    const gate = await policyGate({ ...gated, policies: unreachablePoint, decisions: record }, {}, ctx({}), {
      forwarded: false,
    });
    expect(textOf(gate)).toContain('its policy fails closed');
    expect(recorded[0]).toMatchObject({
      policy: 'desk',
      decision: { outcome: 'deny' },
      decisionPoint: { url: 'http://127.0.0.1:9/evaluate', onError: 'deny', failure: expect.any(String) },
    });
  });

  it('acts on the decision recorded first for the round, without asking the decision point again', async () => {
    const first: GatewayDecisionFacts = {
      kind: 'gateway-decision' as const,
      exchange: 'e',
      round: 1,
      call: {
        method: 'tools/call' as const,
        target: 'bank_pay',
        upstream: 'bank',
        tool: 'pay',
        argumentsDigest: 'd',
        caller: { id: 'caller', subject: 'caller' },
      },
      policy: 'desk',
      decision: { outcome: 'forward' as const },
      decisionPoint: { url: 'http://127.0.0.1:9/evaluate', responseDigest: 'r', status: 200, onError: 'deny' as const },
      decidedAt: new Date(0).toISOString(),
    };
    const { record, recorded } = memoryRecord([first]);
    // Asked, the unreachable point would deny; the first decision forwarded, so the repeat forwards.
    const gate = await policyGate({ ...gated, policies: unreachablePoint, decisions: record }, {}, ctx({}), {
      forwarded: false,
    });
    expect(gate).toEqual({ kind: 'forward' });
    expect(recorded).toEqual([]);
    // Another round of the same exchange is a decision of its own.
    const later = await policyGate(
      { ...gated, policies: unreachablePoint, decisions: record },
      {},
      { ...ctx({}), round: 2 },
      {
        forwarded: false,
      },
    );
    expect(textOf(later)).toContain('fails closed');
    expect(recorded.map((facts) => facts.round)).toEqual([2]);
  });

  it('forwards nothing when the decision cannot be recorded', async () => {
    const failing: DecisionRecord = {
      read: () => Promise.resolve(undefined),
      record: () => Promise.reject(new Error('the database is down')),
    };
    const allowAll = [
      withSecret(
        CallPolicySchema.parse({
          name: 'desk',
          tools: ['pay'],
          decide: { url: 'http://127.0.0.1:9/evaluate', secretEnv: 'DESK', timeoutMs: 500, onError: 'allow' },
        }),
      ),
    ];
    const gate = await policyGate({ ...gated, policies: allowAll, decisions: failing }, {}, ctx({}), {
      forwarded: false,
    });
    expect(textOf(gate)).toContain('could not record');
  });
});
