// Pins the Host half of the DNS-rebinding guard, which every route passes through: the names of
// this server and IP addresses pass, a rebound name gets 403 naming ALLOWED_HOSTS.
import { runGuard } from '../../../../test/support/guard-run';
import { hostGuard } from './host-guard';

const run = runGuard;

describe('hostGuard', () => {
  const open = hostGuard({ listenHost: '0.0.0.0' });

  it.each(['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', '127.3.4.5', '10.0.0.7:3000', '[fd00::7]:3000'])(
    'lets loopback and an IP address through on any listener: %s',
    (host) => {
      expect(run(open, { host }).passed).toBe(true);
    },
  );

  it.each(['rebound.evil.example:3000', 'localhost.evil.example', '', 'bad host'])(
    'refuses a name that is not this server: %j, naming ALLOWED_HOSTS',
    (host) => {
      const { passed, status, body } = run(open, { host });
      expect(passed).toBe(false);
      expect(status).toBe(403);
      expect((body as { error: { message: string } }).error.message).toMatch(/Forbidden host.*ALLOWED_HOSTS/);
    },
  );

  it('refuses a request with no Host header', () => {
    expect(run(open, {}).status).toBe(403);
  });

  it("takes this server's names from its public URLs, ALLOWED_ORIGINS, ALLOWED_HOSTS and the address it listens on", () => {
    const named = hostGuard({
      listenHost: 'api.internal',
      allowedHosts: ['mcp.internal'],
      allowedOrigins: ['https://app.example.com'],
      publicUrls: ['https://mcp.example.com/mcp', 'https://answers.example.com'],
    });
    for (const host of [
      'mcp.example.com',
      'answers.example.com:443',
      'MCP.internal:3000',
      'api.internal:3000',
      'app.example.com',
    ])
      expect(run(named, { host }).passed).toBe(true);
    expect(run(named, { host: 'mcp.example.com.evil.example' }).status).toBe(403);
  });
});
