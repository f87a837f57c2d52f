import { parseQuotaFile, QuotaDeclarationError, quotaRulesOfEnv, tenantRuleProblem } from './quota-rules';

const ENV_OFF = {
  QUOTA_CALLS_PER_MINUTE_PER_PRINCIPAL: 0,
  QUOTA_CALLS_PER_DAY_PER_PRINCIPAL: 0,
  QUOTA_CALLS_PER_MINUTE_PER_TENANT: 0,
  QUOTA_CALLS_PER_DAY_PER_TENANT: 0,
};

const problemOf = (file: unknown): string => {
  try {
    parseQuotaFile(JSON.stringify(file), 'q.json');
  } catch (error) {
    expect(error).toBeInstanceOf(QuotaDeclarationError);
    return (error as Error).message;
  }
  throw new Error('parsed');
};

describe('the rules of the environment', () => {
  it('are none when every variable is 0', () => {
    expect(quotaRulesOfEnv(ENV_OFF)).toEqual([]);
  });

  it('are one rule per principal, and one per tenant, with the windows set', () => {
    expect(
      quotaRulesOfEnv({ ...ENV_OFF, QUOTA_CALLS_PER_MINUTE_PER_PRINCIPAL: 60, QUOTA_CALLS_PER_DAY_PER_TENANT: 5000 }),
    ).toEqual([
      { name: 'per-principal', per: 'principal', eachTool: false, limits: { minute: 60 } },
      { name: 'per-tenant', per: 'tenant', eachTool: false, limits: { day: 5000 } },
    ]);
  });
});

describe('a quota file', () => {
  it('declares rules with their defaults: per principal, the group together', () => {
    expect(
      parseQuotaFile(
        JSON.stringify({ quotas: [{ name: 'writes', tools: ['delete_*'], perMinute: 5, perHour: 50, perDay: 100 }] }),
        'q.json',
      ),
    ).toEqual([
      {
        name: 'writes',
        per: 'principal',
        tools: ['delete_*'],
        eachTool: false,
        limits: { minute: 5, hour: 50, day: 100 },
      },
    ]);
  });

  it('names each field at fault by its path', () => {
    expect(problemOf({ quotas: [{ name: 'Writes', perMinute: 1 }] })).toMatch(/^q\.json: quotas\.0\.name: /);
    expect(problemOf({ quotas: [{ name: 'w', perMinute: 1.5 }] })).toMatch(/quotas\.0\.perMinute: /);
    expect(problemOf({ quotas: [{ name: 'w', perDay: 0 }] })).toMatch(/quotas\.0\.perDay: /);
    expect(problemOf({ quotas: [{ name: 'w', per: 'client', perDay: 1 }] })).toMatch(/quotas\.0\.per: /);
    expect(problemOf({ quotas: [{ name: 'w', tools: ['a b'], perDay: 1 }] })).toMatch(/quotas\.0\.tools\.0: /);
    expect(problemOf({ quotas: [{ name: 'w', perDay: 1, window: 'week' }] })).toMatch(
      /quotas\.0: Unrecognized key.*window/,
    );
    expect(problemOf({ quotas: [], extra: true })).toMatch(/\(file\): Unrecognized key/);
  });

  it('refuses a rule that limits no window, and eachTool without tools', () => {
    expect(problemOf({ quotas: [{ name: 'w' }] })).toMatch(/quotas\.0: names none of perMinute, perHour and perDay/);
    expect(problemOf({ quotas: [{ name: 'w', eachTool: true, perDay: 1 }] })).toMatch(
      /quotas\.0\.eachTool: needs tools/,
    );
  });

  it("refuses a name twice, and the environment's rules' names", () => {
    expect(
      problemOf({
        quotas: [
          { name: 'w', perDay: 1 },
          { name: 'w', perDay: 2 },
        ],
      }),
    ).toMatch(/quotas\.1\.name: w is declared twice/);
    expect(problemOf({ quotas: [{ name: 'per-principal', perDay: 1 }] })).toMatch(
      /quotas\.0\.name: per-principal is the name of the QUOTA_CALLS_PER_\* rule/,
    );
  });

  it('is JSON', () => {
    expect(() => parseQuotaFile('{ quotas: ', 'q.json')).toThrow(/^q\.json is not JSON/);
  });
});

describe('rules per tenant', () => {
  const rules = quotaRulesOfEnv({ ...ENV_OFF, QUOTA_CALLS_PER_MINUTE_PER_TENANT: 10 });

  it('need the tenant claim, and tokens to read it from', () => {
    expect(tenantRuleProblem(rules, undefined, 'oauth')).toMatch(/set TENANT_CLAIM/);
    expect(tenantRuleProblem(rules, 'tid', 'off')).toMatch(/needs AUTH_MODE=oauth/);
    expect(tenantRuleProblem(rules, 'tid', 'oauth')).toBeUndefined();
    expect(tenantRuleProblem([], undefined, 'off')).toBeUndefined();
  });
});
