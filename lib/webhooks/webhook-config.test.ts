import { parseConfig } from '../config';

const BASE = {
  DATABASE_URL: 'postgres://localhost/x',
  REQUEST_STATE_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
  PAYLOAD_CODEC_KEYS: `c1:${Buffer.alloc(32, 2).toString('base64')}`,
};
const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const webhooksOf = (env: Record<string, string>) => parseConfig({ ...BASE, ...env }).webhooks;

describe('webhook configuration', () => {
  it('is off by default, with its bounds', () => {
    expect(webhooksOf({})).toEqual({
      urls: [],
      secrets: [],
      timeoutMs: 5000,
      maxAttempts: 10,
      maxIntervalMs: 600_000,
      maxBodyBytes: 65_536,
    });
  });

  it('takes comma-separated https receivers and secrets', () => {
    const config = webhooksOf({
      WEBHOOK_URLS: ' https://bots.example/hook, http://127.0.0.1:9000/x ,http://[::1]/y,',
      WEBHOOK_SECRETS: `${SECRET}, ${SECRET.replace('A', 'B')}`,
    });
    expect(config.urls).toEqual(['https://bots.example/hook', 'http://127.0.0.1:9000/x', 'http://[::1]/y']);
    expect(config.secrets).toHaveLength(2);
  });

  it.each([
    ['http://bots.example/hook', /http on a loopback address/],
    ['https://user:pw@bots.example/hook', /must not carry credentials/],
    ['ftp://bots.example/hook', /must be https/],
    ['bots.example/hook', /is not a URL/],
  ])('refuses %s', (url, reason) => {
    expect(() => webhooksOf({ WEBHOOK_URLS: url, WEBHOOK_SECRETS: SECRET })).toThrow(reason);
  });

  it('takes plain http off loopback only when told so', () => {
    const urls = { WEBHOOK_URLS: 'http://bots.internal/hook', WEBHOOK_SECRETS: SECRET };
    expect(webhooksOf({ ...urls, WEBHOOK_ALLOW_HTTP: 'true' }).urls).toEqual(['http://bots.internal/hook']);
  });

  it('needs a secret for its receivers, and refuses a malformed one without showing it', () => {
    expect(() => webhooksOf({ WEBHOOK_URLS: 'https://bots.example/hook' })).toThrow(/WEBHOOK_SECRETS is missing/);
    const wrong = () => webhooksOf({ WEBHOOK_SECRETS: `${SECRET},whsec_hunter2` });
    expect(wrong).toThrow(/WEBHOOK_SECRETS is malformed: secret 2 must/);
    expect(wrong).not.toThrow(/hunter2/);
  });
});
