import { checkUpstreamsCommand } from './check-upstreams-command';
import { checkedFileWith, written } from '../test/support/check-file-fixtures';

const fileWith = checkedFileWith('upstreams');

describe('durable-mcp check --upstreams', () => {
  it('lists the upstreams of a valid file and their policies, exit 0', () => {
    const out = written();
    const file = fileWith({
      upstreams: [
        { name: 'shop', url: 'http://shop/mcp', policies: [{ name: 'no deletes', tools: ['delete_*'], deny: 'no' }] },
      ],
    });
    expect(checkUpstreamsCommand(file, out.stream)).toBe(0);
    expect(out.text()).toBe(
      `${file}: 1 upstream, all valid\n  upstream shop at http://shop/mcp; policies: no deletes\n`,
    );
  });

  it('says what is wrong with an invalid one, exit 78', () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(checkUpstreamsCommand(fileWith({ upstreams: [{ name: 'shop', url: 'nope' }] }), written().stream)).toBe(
        78,
      );
      expect(String(stderr.mock.calls[0]![0])).toMatch(/upstreams\.0\.url/);
      expect(checkUpstreamsCommand('/no/such/file.json', written().stream)).toBe(78);
      expect(String(stderr.mock.calls[1]![0])).toMatch(/^\/no\/such\/file.json cannot be read/);
    } finally {
      stderr.mockRestore();
    }
  });
});

describe('durable-mcp check --upstreams, rounds as local activities', () => {
  const near = { name: 'near', url: 'http://near/mcp', roundActivity: 'local', callTimeoutMs: 1_000 };

  it("says a local upstream's calls fit its bound in this environment", () => {
    const out = written();
    const file = fileWith({ upstreams: [near] });
    expect(checkUpstreamsCommand(file, out.stream, {})).toBe(0);
    expect(out.text()).toBe(
      `${file}: 1 upstream, all valid\n  upstream near at http://near/mcp; rounds as local activities (calls within 4250 ms of LOCAL_HANDLER_TIMEOUT_MS 5000)\n`,
    );
  });

  it('refuses one whose calls do not fit LOCAL_HANDLER_TIMEOUT_MS as this environment sets it, exit 78', () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const file = fileWith({ upstreams: [{ ...near, callTimeoutMs: 5_000 }] });
      expect(checkUpstreamsCommand(file, written().stream, {})).toBe(78);
      expect(String(stderr.mock.calls[0]![0])).toBe(
        `${file}: upstream near: its calls may take 16250 ms (callTimeoutMs 5000 x 3 attempts, and the pauses between them), not under LOCAL_HANDLER_TIMEOUT_MS (5000 ms), the bound of its rounds as local activities (roundActivity 'local'): lower callTimeoutMs or retries, raise LOCAL_HANDLER_TIMEOUT_MS (at most 50000), or run its rounds as regular activities (roundActivity 'regular', under HANDLER_TIMEOUT_MS)\n`,
      );
      // With the service's own bound raised, it fits; a malformed bound is named.
      expect(checkUpstreamsCommand(file, written().stream, { LOCAL_HANDLER_TIMEOUT_MS: '20000' })).toBe(0);
      expect(checkUpstreamsCommand(file, written().stream, { LOCAL_HANDLER_TIMEOUT_MS: '20s' })).toBe(78);
      expect(String(stderr.mock.calls[1]![0])).toMatch(
        /^LOCAL_HANDLER_TIMEOUT_MS is malformed: must be a decimal integer/,
      );
      // A regular upstream is held to HANDLER_TIMEOUT_MS, as the service holds it.
      const far = fileWith({ upstreams: [{ name: 'far', url: 'http://far/mcp', callTimeoutMs: 60_000 }] });
      expect(checkUpstreamsCommand(far, written().stream, {})).toBe(78);
      expect(String(stderr.mock.calls[2]![0])).toMatch(/upstream far: .* not under HANDLER_TIMEOUT_MS \(90000 ms\)/);
    } finally {
      stderr.mockRestore();
    }
  });
});
