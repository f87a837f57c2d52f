// Pins how the quota rules come out of the configuration: off by default, the variables' rules and
// QUOTAS_FILE's together, and a start that stops naming what is wrong.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, parseConfig } from '.';

const minimal = (): Record<string, string | undefined> => ({
  DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
  REQUEST_STATE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  PAYLOAD_CODEC_KEYS: `p1:${randomBytes(32).toString('base64')}`,
});

const OAUTH = {
  AUTH_MODE: 'oauth',
  MCP_RESOURCE_URL: 'https://mcp.example.com/mcp',
  OAUTH_ISSUERS: 'https://auth.example.com',
};

const fileWith = (content: unknown) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'quotas-config-')), 'quotas.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
};

const problem = (source: Record<string, string | undefined>, role?: 'api' | 'worker'): string => {
  try {
    parseConfig(source, role);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('parsed');
};

describe('the quotas of a configuration', () => {
  it('are none by default', () => {
    expect(parseConfig(minimal()).quotas).toEqual([]);
  });

  it("are the variables' rules, then the file's", () => {
    const file = fileWith({ quotas: [{ name: 'writes', tools: ['write_*'], perMinute: 1 }] });
    const config = parseConfig({ ...minimal(), QUOTA_CALLS_PER_DAY_PER_PRINCIPAL: '500', QUOTAS_FILE: file });
    expect(config.quotas.map((rule) => [rule.name, rule.limits])).toEqual([
      ['per-principal', { day: 500 }],
      ['writes', { minute: 1 }],
    ]);
  });

  it('stop the start on a bad number, a file that cannot be read or is invalid, naming it', () => {
    expect(problem({ ...minimal(), QUOTA_CALLS_PER_MINUTE_PER_PRINCIPAL: '-1' })).toMatch(
      /QUOTA_CALLS_PER_MINUTE_PER_PRINCIPAL/,
    );
    expect(problem({ ...minimal(), QUOTAS_FILE: '/no/such/quotas.json' })).toMatch(
      /QUOTAS_FILE \/no\/such\/quotas\.json cannot be read/,
    );
    const bad = fileWith({ quotas: [{ name: 'w', perMinute: 'ten' }] });
    expect(problem({ ...minimal(), QUOTAS_FILE: bad })).toMatch(/QUOTAS_FILE .*: quotas\.0\.perMinute: /);
  });

  it('per tenant, need TENANT_CLAIM and AUTH_MODE=oauth', () => {
    expect(problem({ ...minimal(), ...OAUTH, QUOTA_CALLS_PER_MINUTE_PER_TENANT: '10' })).toMatch(/set TENANT_CLAIM/);
    expect(problem({ ...minimal(), QUOTA_CALLS_PER_MINUTE_PER_TENANT: '10', TENANT_CLAIM: 'tid' })).toMatch(
      /needs AUTH_MODE=oauth/,
    );
    const config = parseConfig({
      ...minimal(),
      ...OAUTH,
      QUOTA_CALLS_PER_MINUTE_PER_TENANT: '10',
      TENANT_CLAIM: 'tid',
    });
    expect(config.quotas).toEqual([{ name: 'per-tenant', per: 'tenant', eachTool: false, limits: { minute: 10 } }]);
    expect(config.auth).toMatchObject({ tenantClaim: 'tid' });
  });

  it('are not read by a worker, which needs no file', () => {
    expect(parseConfig({ ...minimal(), QUOTAS_FILE: '/no/such/quotas.json' }, 'worker').quotas).toEqual([]);
  });
});
