import { alwaysDenied, CallPolicySchema, conditionHolds, decideCall, type CallPolicy } from './call-policy';

const policy = (value: unknown): CallPolicy => CallPolicySchema.parse(value);
const approvers = { anyOf: [{ group: 'approvers' }] };

describe('a call policy', () => {
  it('matches tool names by pattern: * any run, ? one character', () => {
    const policies = [policy({ name: 'refunds', tools: ['refund_*', 'v?_void'], approve: approvers })];
    expect(decideCall(policies, 'refund_order', {}).kind).toBe('approve');
    expect(decideCall(policies, 'v2_void', {}).kind).toBe('approve');
    expect(decideCall(policies, 'v10_void', {}).kind).toBe('forward');
    expect(decideCall(policies, 'xrefund_order', {}).kind).toBe('forward');
  });

  it('decides by the first policy whose conditions all hold', () => {
    const policies = [
      policy({
        name: 'huge',
        tools: ['pay'],
        when: [{ argument: 'amount', op: 'gte', value: 10_000 }],
        deny: 'too much',
      }),
      policy({
        name: 'big',
        tools: ['pay'],
        when: [
          { argument: 'amount', op: 'gt', value: 100 },
          { argument: 'currency', op: 'in', value: ['EUR', 'USD'] },
        ],
        approve: approvers,
      }),
    ];
    expect(decideCall(policies, 'pay', { amount: 20_000 })).toEqual({
      kind: 'deny',
      policy: 'huge',
      reason: 'too much',
    });
    expect(decideCall(policies, 'pay', { amount: 500, currency: 'EUR' })).toMatchObject({
      kind: 'approve',
      policy: 'big',
    });
    expect(decideCall(policies, 'pay', { amount: 500, currency: 'GBP' })).toEqual({ kind: 'forward' });
    expect(decideCall(policies, 'pay', { amount: 50, currency: 'EUR' })).toEqual({ kind: 'forward' });
  });

  it('reads nested arguments, compares a numeric string as its number, and fails closed on any other value', () => {
    expect(conditionHolds({ argument: 'order.total', op: 'gt', value: 10 }, { order: { total: 11 } })).toBe(true);
    expect(conditionHolds({ argument: 'order.total', op: 'gt', value: 10 }, { order: { total: '11' } })).toBe(true);
    expect(conditionHolds({ argument: 'order.total', op: 'gt', value: 10 }, { order: { total: ' 9 ' } })).toBe(false);
    expect(conditionHolds({ argument: 'order.total', op: 'lt', value: 10 }, { order: { total: 'lots' } })).toBe(true);
    expect(conditionHolds({ argument: 'order.total', op: 'gt', value: 10 }, { order: {} })).toBe(false);
    expect(conditionHolds({ argument: 'order.total', op: 'exists' }, { order: {} })).toBe(false);
    expect(conditionHolds({ argument: 'toString', op: 'exists' }, {})).toBe(false);
    expect(conditionHolds({ argument: 'mode', op: 'ne', value: 'dry' }, {})).toBe(false);
  });

  it('refuses an approval addressed to nobody or to two lists at once, and unknown fields', () => {
    expect(CallPolicySchema.safeParse({ name: 'p', tools: ['t'], approve: {} }).success).toBe(false);
    expect(
      CallPolicySchema.safeParse({
        name: 'p',
        tools: ['t'],
        approve: { anyOf: [{ scope: 's' }], eachOf: [{ scope: 's' }] },
      }).success,
    ).toBe(false);
    expect(CallPolicySchema.safeParse({ name: 'p', tools: ['t'], deny: 'no', approve: approvers }).success).toBe(false);
    expect(
      CallPolicySchema.safeParse({
        name: 'p',
        tools: ['t'],
        when: [{ argument: 'a', op: 'gt', value: '1' }],
        deny: 'x',
      }).success,
    ).toBe(false);
  });

  it('says a tool is always denied only when no policy before the unconditional deny names it', () => {
    const deny = policy({ name: 'no', tools: ['drop_*'], deny: 'never' });
    const held = policy({
      name: 'held',
      tools: ['drop_table'],
      when: [{ argument: 'dry', op: 'eq', value: true }],
      approve: approvers,
    });
    expect(alwaysDenied([deny], 'drop_table')).toBe(true);
    expect(alwaysDenied([held, deny], 'drop_table')).toBe(false);
    expect(alwaysDenied([held, deny], 'drop_index')).toBe(true);
    expect(
      alwaysDenied(
        [policy({ name: 'c', tools: ['drop_*'], when: [{ argument: 'x', op: 'exists' }], deny: 'n' })],
        'drop_table',
      ),
    ).toBe(false);
  });
});
