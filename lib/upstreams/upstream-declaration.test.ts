import { parseUpstreamFile, upstreamOfEnv, UpstreamDeclarationError } from './upstream-declaration';

const file = (upstreams: unknown[]) => JSON.stringify({ upstreams });

describe('an upstreams file', () => {
  it('takes a minimal upstream with the documented defaults', () => {
    expect(parseUpstreamFile(file([{ name: 'billing', url: 'https://billing.example/mcp' }]), {}, 'f')).toEqual([
      {
        name: 'billing',
        url: 'https://billing.example/mcp',
        toolPrefix: '',
        callTimeoutMs: 25_000,
        retries: 2,
        circuitFailures: 5,
        circuitOpenMs: 30_000,
        refreshEveryMs: 300_000,
        maxResultBytes: 1_048_576,
        maxListed: 1_000,
        forwardCaller: false,
        roundActivity: 'regular',
        policies: [],
      },
    ]);
  });

  it('takes how many entries of each listing to serve, within its bounds', () => {
    const parse = (maxListed: number) =>
      parseUpstreamFile(file([{ name: 'b', url: 'http://b/mcp', maxListed }]), {}, 'f')[0]!.maxListed;
    expect(parse(5_000)).toBe(5_000);
    expect(() => parse(0)).toThrow(/upstreams\.0\.maxListed/);
    expect(() => parse(10_001)).toThrow(/upstreams\.0\.maxListed/);
  });

  it('reads a bearer token from the variable it names, never from the file', () => {
    const [upstream] = parseUpstreamFile(
      file([{ name: 'b', url: 'http://b/mcp', auth: { kind: 'bearer', tokenEnv: 'B_TOKEN' } }]),
      { B_TOKEN: 's3cret' },
      'f',
    );
    expect(upstream!.authorization).toBe('Bearer s3cret');
    expect(() =>
      parseUpstreamFile(
        file([{ name: 'b', url: 'http://b/mcp', auth: { kind: 'bearer', tokenEnv: 'B_TOKEN' } }]),
        {},
        'f',
      ),
    ).toThrow('upstream b: its bearer token variable B_TOKEN is not set');
  });

  it('names each field at fault', () => {
    const parse = () =>
      parseUpstreamFile(
        file([
          { name: 'Billing', url: 'ftp://x/mcp' },
          { name: 'ok', url: 'http://ok/mcp', toolPrefix: 'has space', tokn: 1 },
        ]),
        {},
        'UPSTREAMS_FILE u.json',
      );
    expect(parse).toThrow(UpstreamDeclarationError);
    expect(parse).toThrow(/upstreams\.0\.name: a lower-case letter/);
    expect(parse).toThrow(/upstreams\.0\.url: an http: or https: URL/);
    expect(parse).toThrow(/upstreams\.1\.toolPrefix/);
    expect(parse).toThrow(/Unrecognized key: "tokn"/);
  });

  it('takes local rounds per upstream, and nothing else for them', () => {
    const [near, far] = parseUpstreamFile(
      file([
        { name: 'near', url: 'http://near/mcp', roundActivity: 'local' },
        { name: 'far', url: 'http://far/mcp', roundActivity: 'regular' },
      ]),
      {},
      'f',
    );
    expect([near!.roundActivity, far!.roundActivity]).toEqual(['local', 'regular']);
    expect(() =>
      parseUpstreamFile(file([{ name: 'x', url: 'http://x/mcp', roundActivity: 'remote' }]), {}, 'f'),
    ).toThrow(/upstreams\.0\.roundActivity/);
  });

  it('refuses a name declared twice, and text that is not JSON', () => {
    const twice = file([
      { name: 'a', url: 'http://a/mcp' },
      { name: 'a', url: 'http://b/mcp' },
    ]);
    expect(() => parseUpstreamFile(twice, {}, 'f')).toThrow('upstreams.1.name: a is declared twice');
    expect(() => parseUpstreamFile('{', {}, 'UPSTREAMS_FILE u.json')).toThrow(/^UPSTREAMS_FILE u.json is not JSON/);
  });
});

describe('an upstream in the environment', () => {
  it('is parsed as a file entry is, its token as the Authorization header', () => {
    const upstream = upstreamOfEnv({
      url: 'http://shop/mcp',
      name: 'shop',
      toolPrefix: 'shop_',
      bearerToken: 't',
      callTimeoutMs: 1_000,
    });
    expect(upstream).toMatchObject({
      name: 'shop',
      toolPrefix: 'shop_',
      callTimeoutMs: 1_000,
      authorization: 'Bearer t',
    });
    expect(() => upstreamOfEnv({ url: 'not a url', name: 'shop', toolPrefix: '', callTimeoutMs: 1_000 })).toThrow(
      /^UPSTREAM_\*: url/,
    );
  });

  it('runs its rounds as regular activities unless declared local', () => {
    const values = { url: 'http://shop/mcp', name: 'shop', toolPrefix: '', callTimeoutMs: 1_000 };
    expect(upstreamOfEnv(values).roundActivity).toBe('regular');
    expect(upstreamOfEnv({ ...values, roundActivity: 'local' }).roundActivity).toBe('local');
  });
});

describe("an upstream's policies", () => {
  it('stop the start when nobody could answer an approval, naming the policy', () => {
    const entry = {
      name: 'pay',
      url: 'http://pay/mcp',
      policies: [
        { name: 'ok', tools: ['refund'], approve: { anyOf: [{ group: 'approvers' }] } },
        {
          name: 'bad',
          tools: ['pay'],
          approve: { anyOf: [{ scope: 'pay:approve' }], requireSignIn: { maxAgeS: 300 } },
        },
      ],
    };
    expect(() => parseUpstreamFile(file([entry]), {}, 'f')).toThrow(
      /upstreams\.0\.policies\.1\.approve: approve\.requireSignIn/,
    );
  });
});
