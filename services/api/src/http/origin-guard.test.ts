// Pins the Origin half of the DNS-rebinding guard: which browser origins pass, and that refusals are 403.
import { runGuard } from '../../../../test/support/guard-run';
import { originGuard } from './origin-guard';

const run = runGuard;

describe('originGuard', () => {
  const guard = originGuard({ allowedOrigins: ['https://app.example.com'] });

  it.each([
    [{ host: '127.0.0.1:3000' }],
    [{ host: 'localhost:3000', origin: 'http://localhost:5173' }],
    [{ host: '[::1]:3000', origin: 'http://[::1]:8080' }],
    [{ host: 'app.example.com', origin: 'https://app.example.com/' }],
  ])('lets %j through', (headers) => {
    expect(run(guard, headers).passed).toBe(true);
  });

  it.each([
    [{ host: '127.0.0.1:3000', origin: 'https://evil.example' }],
    [{ host: '127.0.0.1:3000', origin: 'https://app.example.com.evil.example' }],
    [{ host: '127.0.0.1:3000', origin: 'null' }],
  ])('refuses %j with 403', (headers) => {
    const { passed, status, body } = run(guard, headers);
    expect(passed).toBe(false);
    expect(status).toBe(403);
    expect((body as { error: { message: string } }).error.message).toMatch(/Forbidden origin/);
  });
});
