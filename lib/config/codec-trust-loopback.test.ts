import { parseConfig } from './config';
import { codecTrustsLoopback } from './codec-trust-loopback';

const base = { CODEC_TRUST_LOOPBACK: true, HOST: '127.0.0.1', TRUST_PROXY: '', NODE_ENV: 'development' };

describe('CODEC_TRUST_LOOPBACK', () => {
  it('is off unless set, and on for an API on loopback with no proxy in front', () => {
    expect(codecTrustsLoopback({ ...base, CODEC_TRUST_LOOPBACK: false, HOST: '0.0.0.0' })).toBe(false);
    expect(codecTrustsLoopback(base)).toBe(true);
    expect(codecTrustsLoopback({ ...base, HOST: '::1' })).toBe(true);
  });

  it.each([
    [{ HOST: '0.0.0.0' }, /HOST=0\.0\.0\.0, which is not a loopback address/],
    [{ HOST: '10.1.2.3' }, /HOST=10\.1\.2\.3/],
    [{ TRUST_PROXY: 'loopback' }, /TRUST_PROXY set/],
    [{ TRUST_PROXY: '1' }, /TRUST_PROXY set/],
    [{ NODE_ENV: 'production' }, /NODE_ENV=production/],
  ])('is refused with %j', (change, message) => {
    expect(() => codecTrustsLoopback({ ...base, ...change })).toThrow(message);
  });

  it('stops the service at start, naming the variable', () => {
    expect(() =>
      parseConfig({
        DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
        NODE_ENV: 'development',
        HOST: '0.0.0.0',
        ALLOW_UNAUTHENTICATED: 'true',
        CODEC_TRUST_LOOPBACK: 'true',
        REQUEST_STATE_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
        PAYLOAD_CODEC_KEYS: `p1:${Buffer.alloc(32, 2).toString('base64')}`,
      }),
    ).toThrow(/CODEC_TRUST_LOOPBACK is malformed: refused with HOST=0\.0\.0\.0/);
    const config = parseConfig({
      DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
      NODE_ENV: 'development',
      CODEC_TRUST_LOOPBACK: 'true',
      REQUEST_STATE_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
      PAYLOAD_CODEC_KEYS: `p1:${Buffer.alloc(32, 2).toString('base64')}`,
    });
    expect(config.codecEndpoint.trustLoopback).toBe(true);
  });
});
