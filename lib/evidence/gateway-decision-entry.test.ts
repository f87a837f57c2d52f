import { canonicalize, digestOfJson } from './canonical-json';
import { evidencePayloadOf } from './evidence-entry';
import { gatewayDecisionPayloadOf, isGatewayDecision } from './gateway-decision-entry';
import { gatewayDecisionOf, QUESTION } from './test-chain';

const links = { seq: 3, prev: 'p', exchangeSeq: 1, exchangePrev: null, loggedAt: '2026-01-01T12:00:00.000Z' };

describe("a gateway decision's entry", () => {
  it('binds the call by the digest of its arguments, as an answer’s entry does, and the caller without its details', () => {
    const facts = gatewayDecisionOf({ outcome: 'deny', reason: 'Closed.' });
    expect(facts.call).toEqual({
      method: 'tools/call',
      target: 'shop_refund',
      upstream: 'shop',
      tool: 'refund',
      argumentsDigest: digestOfJson(QUESTION.arguments),
      caller: { id: QUESTION.caller.id, issuer: QUESTION.caller.issuer, subject: QUESTION.caller.subject },
    });
    expect(JSON.stringify(facts)).not.toContain('personId');
    expect(facts).toMatchObject({
      kind: 'gateway-decision',
      round: 1,
      policy: 'desk',
      decidedAt: '2026-01-01T11:00:00.000Z',
    });
  });

  it('is told from an answer’s entry by its kind, and leaves the answer’s payload without one', () => {
    const decision = gatewayDecisionPayloadOf(gatewayDecisionOf({ outcome: 'forward' }), links);
    expect(decision).toMatchObject({ typ: 'durable-mcp/evidence', v: 1, kind: 'gateway-decision', seq: 3 });
    expect(isGatewayDecision(decision)).toBe(true);
    const answer = evidencePayloadOf({ exchange: 'x' } as never, links);
    expect(answer).not.toHaveProperty('kind');
    expect(isGatewayDecision(answer)).toBe(false);
  });

  it('signs the same canonical bytes whatever order its facts were written in', () => {
    const facts = gatewayDecisionOf({ outcome: 'approve', approve: { anyOf: [{ group: 'approvers' }] } });
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(facts).reverse()))) as typeof facts;
    expect(canonicalize(gatewayDecisionPayloadOf(reordered, links))).toBe(
      canonicalize(gatewayDecisionPayloadOf(facts, links)),
    );
  });
});
