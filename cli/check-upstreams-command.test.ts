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
