// The upstreams a configuration declares, held to their rounds' bound: a local upstream's calls must
// fit LOCAL_HANDLER_TIMEOUT_MS, or the start is refused naming the fields, in either form.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError, parseConfig } from '.';

const minimal = {
  DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
  REQUEST_STATE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  PAYLOAD_CODEC_KEYS: `p1:${randomBytes(32).toString('base64')}`,
};

function refusal(source: Record<string, string>): string {
  try {
    parseConfig({ ...minimal, ...source });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was taken');
}

function fileOf(upstreams: unknown[]): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'upstreams-')), 'upstreams.json');
  writeFileSync(file, JSON.stringify({ upstreams }));
  return file;
}

describe("an upstream's round kind", () => {
  it('is regular unless declared local, in the environment', () => {
    const url = { UPSTREAM_URL: 'http://shop/mcp' };
    expect(parseConfig({ ...minimal, ...url }).upstreams[0]!.roundActivity).toBe('regular');
    const local = { ...url, UPSTREAM_ROUND_ACTIVITY: 'local', UPSTREAM_CALL_TIMEOUT_MS: '1000' };
    expect(parseConfig({ ...minimal, ...local }).upstreams[0]).toMatchObject({
      roundActivity: 'local',
      callTimeoutMs: 1_000,
    });
    expect(refusal({ ...url, UPSTREAM_ROUND_ACTIVITY: 'remote' })).toMatch(/UPSTREAM_ROUND_ACTIVITY/);
  });

  it("refuses a local upstream whose calls do not fit LOCAL_HANDLER_TIMEOUT_MS, naming the environment's variables", () => {
    const message = refusal({ UPSTREAM_URL: 'http://shop/mcp', UPSTREAM_ROUND_ACTIVITY: 'local' });
    expect(message).toContain(
      'upstream upstream: its calls may take 76250 ms (callTimeoutMs 25000 x 3 attempts, and the pauses between them), not under LOCAL_HANDLER_TIMEOUT_MS (5000 ms)',
    );
    expect(message).toContain('callTimeoutMs is UPSTREAM_CALL_TIMEOUT_MS, roundActivity UPSTREAM_ROUND_ACTIVITY');
    // Raising the local bound is one way out.
    const raised = {
      UPSTREAM_URL: 'http://shop/mcp',
      UPSTREAM_ROUND_ACTIVITY: 'local',
      UPSTREAM_CALL_TIMEOUT_MS: '15000',
    };
    expect(refusal(raised)).toMatch(/not under LOCAL_HANDLER_TIMEOUT_MS \(5000 ms\)/);
    expect(parseConfig({ ...minimal, ...raised, LOCAL_HANDLER_TIMEOUT_MS: '50000' }).upstreams).toHaveLength(1);
  });

  it("refuses a file's local upstream by its fields, and takes the same calls as regular rounds", () => {
    const near = { name: 'near', url: 'http://near/mcp', callTimeoutMs: 2_000, roundActivity: 'local' };
    const message = refusal({ UPSTREAMS_FILE: fileOf([near]) });
    expect(message).toMatch(/upstream near: its calls may take 7250 ms .*\(roundActivity 'local'\)/);
    expect(message).not.toContain('UPSTREAM_CALL_TIMEOUT_MS');
    const regular = parseConfig({ ...minimal, UPSTREAMS_FILE: fileOf([{ ...near, roundActivity: 'regular' }]) });
    expect(regular.upstreams[0]!.roundActivity).toBe('regular');
    const fits = parseConfig({
      ...minimal,
      UPSTREAMS_FILE: fileOf([{ ...near, retries: 1 }]),
      LOCAL_HANDLER_TIMEOUT_MS: '5000',
    });
    expect(fits.upstreams[0]).toMatchObject({ name: 'near', roundActivity: 'local', retries: 1 });
  });
});
