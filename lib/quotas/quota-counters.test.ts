import { compileQuotaRules, countersFor, refusalOf, type QuotaCall, type QuotaCounter } from './quota-counters';
import type { QuotaRule } from './quota-rules';

const rule = (r: Partial<QuotaRule> & Pick<QuotaRule, 'name' | 'limits'>): QuotaRule => ({
  per: 'principal',
  eachTool: false,
  ...r,
});

const call = (c: Partial<QuotaCall> = {}): QuotaCall => ({
  principal: 'https://issuer|alice',
  method: 'tools/call',
  target: 'deploy',
  ...c,
});

describe('which counters a call takes', () => {
  const rules = compileQuotaRules([
    rule({ name: 'all', limits: { minute: 60, day: 1000 } }),
    rule({ name: 'writes', tools: ['delete_*', 'deploy'], limits: { minute: 5 } }),
    rule({ name: 'each', tools: ['delete_?'], eachTool: true, limits: { hour: 2 } }),
    rule({ name: 'tenants', per: 'tenant', limits: { day: 10_000 } }),
  ]);

  it('one per window of each rule that applies, keyed by the rule and the principal', () => {
    expect(countersFor(rules, call())).toEqual([
      { rule: 'all', window: 'minute', windowS: 60, limit: 60, key: '["all","principal","https://issuer|alice"]' },
      { rule: 'all', window: 'day', windowS: 86_400, limit: 1000, key: '["all","principal","https://issuer|alice"]' },
      { rule: 'writes', window: 'minute', windowS: 60, limit: 5, key: '["writes","principal","https://issuer|alice"]' },
    ]);
  });

  it('matches tool patterns on tools/call only: a prompt or resource of the same name counts for every-call rules alone', () => {
    expect(countersFor(rules, call({ method: 'prompts/get' })).map((c) => c.rule)).toEqual(['all', 'all']);
    expect(countersFor(rules, call({ target: 'deploy_all' })).map((c) => c.rule)).toEqual(['all', 'all']);
  });

  it('counts a group together, and each tool of an eachTool rule apart', () => {
    const keys = (target: string) =>
      countersFor(rules, call({ target }))
        .filter((c) => c.rule !== 'all')
        .map((c) => c.key);
    expect(keys('delete_a')).toEqual([
      '["writes","principal","https://issuer|alice"]',
      '["each","principal","https://issuer|alice","delete_a"]',
    ]);
    expect(keys('delete_b')[0]).toBe(keys('delete_a')[0]);
    expect(keys('delete_b')[1]).not.toBe(keys('delete_a')[1]);
  });

  it('counts per tenant only a caller whose token names one, and principals of a tenant together', () => {
    expect(countersFor(rules, call()).some((c) => c.rule === 'tenants')).toBe(false);
    const tenants = (principal: string) =>
      countersFor(rules, call({ principal, tenant: 'https://issuer|acme' })).filter((c) => c.rule === 'tenants');
    expect(tenants('a')).toEqual([
      {
        rule: 'tenants',
        window: 'day',
        windowS: 86_400,
        limit: 10_000,
        key: '["tenants","tenant","https://issuer|acme"]',
      },
    ]);
    expect(tenants('b')).toEqual(tenants('a'));
  });

  it('keeps two principals apart, whatever their ids hold', () => {
    const [a] = countersFor(rules, call({ principal: 'x","y' }));
    const [b] = countersFor(rules, call({ principal: 'x', target: 'y' }));
    expect(a!.key).not.toBe(b!.key);
  });

  it('keys a long combination by its digest', () => {
    const each = compileQuotaRules([rule({ name: 'e', tools: ['*'], eachTool: true, limits: { day: 1 } })]);
    expect(countersFor(each, call({ target: 'z'.repeat(2000) }))[0]!.key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(countersFor(each, call({ target: 'z'.repeat(2001) }))[0]!.key).not.toBe(
      countersFor(each, call({ target: 'z'.repeat(2000) }))[0]!.key,
    );
  });

  it('is none without rules', () => {
    expect(countersFor(compileQuotaRules([]), call())).toEqual([]);
  });
});

describe('what a refused call is told', () => {
  const minute: QuotaCounter = { rule: 'all', window: 'minute', windowS: 60, limit: 60, key: 'k' };
  const day: QuotaCounter = { rule: 'all', window: 'day', windowS: 86_400, limit: 1000, key: 'k' };

  it('the end of the window, and the whole seconds until then', () => {
    expect(refusalOf(minute, new Date('2026-03-01T10:15:00Z'), new Date('2026-03-01T10:15:42.300Z'))).toEqual({
      quota: 'all',
      window: 'minute',
      windowS: 60,
      limit: 60,
      retryAfterS: 18,
      resetAt: '2026-03-01T10:16:00.000Z',
    });
    expect(refusalOf(day, new Date('2026-03-01T00:00:00Z'), new Date('2026-03-01T18:00:00Z'))).toMatchObject({
      retryAfterS: 6 * 3600,
      resetAt: '2026-03-02T00:00:00.000Z',
    });
  });

  it('at least one second, even at the very end of the window', () => {
    expect(refusalOf(minute, new Date('2026-03-01T10:15:00Z'), new Date('2026-03-01T10:15:59.999Z')).retryAfterS).toBe(
      1,
    );
    expect(refusalOf(minute, new Date('2026-03-01T10:15:00Z'), new Date('2026-03-01T10:15:59.000Z')).retryAfterS).toBe(
      1,
    );
    expect(refusalOf(minute, new Date('2026-03-01T10:15:00Z'), new Date('2026-03-01T10:15:58.999Z')).retryAfterS).toBe(
      2,
    );
  });
});
