import { checkQuotasCommand } from './check-quotas-command';
import { checkedFileWith, written } from '../test/support/check-file-fixtures';

const fileWith = checkedFileWith('quotas');

describe('durable-mcp check --quotas', () => {
  it('lists the rules of a valid file, exit 0', () => {
    const out = written();
    const file = fileWith({
      quotas: [
        { name: 'writes', tools: ['delete_*', 'deploy'], eachTool: true, perMinute: 5, perDay: 100 },
        { name: 'tenants', per: 'tenant', perHour: 1000 },
      ],
    });
    expect(checkQuotasCommand(file, out.stream, { TENANT_CLAIM: 'tid', AUTH_MODE: 'oauth' })).toBe(0);
    expect(out.text()).toBe(
      `${file}: 2 quotas, all valid\n` +
        '  writes: per principal, tools delete_*, deploy (each apart), 5 per minute, 100 per day\n' +
        '  tenants: per tenant, 1000 per hour\n',
    );
  });

  it('says what is wrong with an invalid one, by its field path, exit 78', () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const bad = fileWith({ quotas: [{ name: 'writes', perMinute: 0, limit: 3 }] });
      expect(checkQuotasCommand(bad, written().stream, {})).toBe(78);
      expect(String(stderr.mock.calls[0]![0])).toMatch(/quotas\.0\.perMinute: .*quotas\.0: Unrecognized key.*limit/);
      const tenant = fileWith({ quotas: [{ name: 'tenants', per: 'tenant', perHour: 10 }] });
      expect(checkQuotasCommand(tenant, written().stream, { AUTH_MODE: 'oauth' })).toBe(78);
      expect(String(stderr.mock.calls[1]![0])).toMatch(/set TENANT_CLAIM/);
      expect(checkQuotasCommand('/no/such/file.json', written().stream, {})).toBe(78);
      expect(String(stderr.mock.calls[2]![0])).toMatch(/^\/no\/such\/file.json cannot be read/);
    } finally {
      stderr.mockRestore();
    }
  });
});
