// Pins parseConfig: documented defaults, and errors that name the offending variable and say why.
import { randomBytes } from 'node:crypto';
import { checkApiExposure, ConfigError, loadConfigOrExit, parseConfig, type Config } from '.';
import { isLoopbackHost } from '../loopback-host';

const key32 = () => randomBytes(32).toString('base64');
const KEY = key32();
const CODEC_KEY = key32();

const minimal = (): Record<string, string | undefined> => ({
  DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
  REQUEST_STATE_KEYS: `k1:${KEY}`,
  PAYLOAD_CODEC_KEYS: `p1:${CODEC_KEY}`,
});

function configError(source: Record<string, string | undefined>): ConfigError {
  let caught: unknown;
  let parsed: Config | undefined;
  try {
    parsed = parseConfig(source);
  } catch (error) {
    caught = error;
  }
  expect(parsed).toBeUndefined();
  expect(caught).toBeInstanceOf(ConfigError);
  return caught as ConfigError;
}

describe('parseConfig', () => {
  it('applies the documented defaults when only DATABASE_URL and the two key rings are given', () => {
    const config = parseConfig(minimal());
    expect(config.http.port).toBe(3000);
    expect(config.http.waitMs).toBe(50_000);
    expect(config.exchange.roundTimeoutMs).toBe(600_000);
    expect(config.exchange.maxRounds).toBe(8);
    expect(config.database.url).toBe('postgres://mcp:mcp@127.0.0.1:5432/mcp');
  });

  it('decodes the key ring into kid and 32-byte key buffers, first key first', () => {
    const second = key32();
    const config = parseConfig({ ...minimal(), REQUEST_STATE_KEYS: `new:${KEY}, old:${second}` });
    expect(config.requestState.keys.map((k) => k.kid)).toEqual(['new', 'old']);
    expect(config.requestState.keys[0]?.key.equals(Buffer.from(KEY, 'base64'))).toBe(true);
    expect(config.requestState.keys[1]?.key.equals(Buffer.from(second, 'base64'))).toBe(true);
  });

  it('coerces numeric variables given as strings', () => {
    const config = parseConfig({
      ...minimal(),
      PORT: '8080',
      MAX_ROUNDS: '3',
      ROUND_TIMEOUT_MS: '5000',
      HTTP_WAIT_MS: '100',
    });
    expect(config.http.port).toBe(8080);
    expect(config.exchange.maxRounds).toBe(3);
    expect(config.exchange.roundTimeoutMs).toBe(5000);
    expect(config.http.waitMs).toBe(100);
  });

  it('reads ALLOWED_ORIGINS as origins in the form browsers send them and ALLOWED_HOSTS as lists; refuses an origin with a path, null or a host with a port, naming them', () => {
    const config = parseConfig({
      ...minimal(),
      ALLOWED_ORIGINS: 'https://App.Example.com:443/, http://127.0.0.1:8080',
      ALLOWED_HOSTS: 'MCP.example.com,10.0.0.5',
    });
    expect(config.http.allowedOrigins).toEqual(['https://app.example.com', 'http://127.0.0.1:8080']);
    expect(config.http.allowedHosts).toEqual(['mcp.example.com', '10.0.0.5']);
    for (const bad of ['https://app.example.com/ui', 'null', 'https://app.example.com/?x=1', 'app.example.com'])
      expect(configError({ ...minimal(), ALLOWED_ORIGINS: bad }).message).toMatch(
        /ALLOWED_ORIGINS is malformed: must be comma-separated origins/,
      );
    expect(configError({ ...minimal(), ALLOWED_HOSTS: 'mcp.example.com:443' }).message).toMatch(
      /ALLOWED_HOSTS is malformed: must be host names or addresses/,
    );
  });

  it('returns a frozen config', () => {
    expect(Object.isFrozen(parseConfig(minimal()))).toBe(true);
  });

  it('throws a ConfigError naming DATABASE_URL as missing when it is absent', () => {
    const { DATABASE_URL: _omitted, ...rest } = minimal();
    const error = configError(rest);
    expect(error.name).toBe('ConfigError');
    expect(error.message).toMatch(/DATABASE_URL is not set/);
  });

  it('names each missing variable with what it is for, in plain words, and where to read about them', () => {
    expect(configError({}).message).toBe(
      [
        'Invalid configuration:',
        "  DATABASE_URL is not set: Postgres for the service's records",
        '  PAYLOAD_CODEC_KEYS is not set: the keys that encrypt every payload the service puts into Temporal',
        '  REQUEST_STATE_KEYS is not set: the keys that seal the requestState a client carries between the legs of an exchange',
        'Set them in the environment (docs/configuration.md says what each is); `durable-mcp dev` sets them for local development.',
      ].join('\n'),
    );
  });

  it('throws a ConfigError naming DATABASE_URL as malformed when it is not a postgres URL', () => {
    expect(configError({ ...minimal(), DATABASE_URL: 'mysql://db/x' }).message).toMatch(/DATABASE_URL is malformed/);
  });

  it.each(['abc', '70000', '-1', '80.5'])('throws a ConfigError naming PORT as malformed for %s', (port) => {
    const message = configError({ ...minimal(), PORT: port }).message;
    expect(message).toMatch(/PORT is malformed/);
    expect(message).not.toMatch(/DATABASE_URL/);
  });

  it('reports every invalid variable in one error', () => {
    const message = configError({ REQUEST_STATE_KEYS: `k1:${KEY}`, PORT: 'nope', MAX_ROUNDS: '0' }).message;
    expect(message).toMatch(/DATABASE_URL is not set/);
    expect(message).toMatch(/PORT is malformed/);
    expect(message).toMatch(/MAX_ROUNDS is malformed/);
  });

  it('throws a ConfigError naming REQUEST_STATE_KEYS when it is missing', () => {
    const { REQUEST_STATE_KEYS: _omitted, ...rest } = minimal();
    expect(configError(rest).message).toMatch(/REQUEST_STATE_KEYS is not set/);
  });

  it.each([16, 31, 33, 64])('throws a ConfigError naming REQUEST_STATE_KEYS for a %i-byte key', (bytes) => {
    const message = configError({
      ...minimal(),
      REQUEST_STATE_KEYS: `short:${randomBytes(bytes).toString('base64')}`,
    }).message;
    expect(message).toMatch(/REQUEST_STATE_KEYS/);
    expect(message).toContain('short');
    expect(message).toContain(`got ${bytes}`);
  });

  it('throws a ConfigError naming REQUEST_STATE_KEYS when one key of several has the wrong length', () => {
    const ring = `good:${KEY},bad:${randomBytes(24).toString('base64')}`;
    expect(configError({ ...minimal(), REQUEST_STATE_KEYS: ring }).message).toMatch(/REQUEST_STATE_KEYS: key "bad"/);
  });

  it('throws a ConfigError naming REQUEST_STATE_KEYS when an entry is not a kid:key pair', () => {
    expect(configError({ ...minimal(), REQUEST_STATE_KEYS: KEY }).message).toMatch(/REQUEST_STATE_KEYS is malformed/);
  });

  it('rejects a key ring with duplicate key ids', () => {
    const message = configError({ ...minimal(), REQUEST_STATE_KEYS: `k1:${KEY},k1:${key32()}` }).message;
    expect(message).toMatch(/REQUEST_STATE_KEYS/);
    expect(message).toMatch(/unique/);
  });

  it("applies the documented budgets and refuses a round input budget that would pass Temporal's payload limit", () => {
    const { limits } = parseConfig(minimal());
    expect(limits).toMatchObject({
      maxJsonDepth: 64,
      maxRequestIdLength: 256,
      maxTargetLength: 1024,
      maxRoundInputBytes: 524_288,
      maxInflightLegs: 1000,
      capacityRetryAfterS: 5,
    });
    expect(configError({ ...minimal(), MAX_ROUND_INPUT_BYTES: '2000000' }).message).toMatch(
      /MAX_ROUND_INPUT_BYTES is malformed/,
    );
    expect(parseConfig({ ...minimal(), MAX_JSON_DEPTH: '8' }).limits.maxJsonDepth).toBe(8);
  });

  it('serves the demo set by default; HANDLERS names a set or a module and wins over HANDLER_SET', () => {
    expect(parseConfig(minimal()).handlers).toBe('demo');
    expect(parseConfig({ ...minimal(), HANDLER_SET: 'conformance' }).handlers).toBe('conformance');
    expect(parseConfig({ ...minimal(), HANDLERS: './dist/tools.js', HANDLER_SET: 'bench' }).handlers).toBe(
      './dist/tools.js',
    );
    expect(parseConfig({ ...minimal(), HANDLERS: '', HANDLER_SET: 'bench' }).handlers).toBe('bench');
    // HANDLER_SET stays what it was: built-in names only.
    expect(configError({ ...minimal(), HANDLER_SET: './dist/tools.js' }).message).toContain('HANDLER_SET is malformed');
  });

  it('keeps the admin API off, readiness at 2 s and worker metrics on 127.0.0.1:9464 by default', () => {
    const config = parseConfig(minimal());
    expect(config.admin).toEqual({ tokenGuesses: { maxFailures: 10, windowMs: 300_000 } });
    expect(config.http.readyCheckTimeoutMs).toBe(2000);
    expect(config.workerMetrics).toEqual({ host: '127.0.0.1', port: 9464 });
  });

  it('reads the admin token and the Temporal UI URL; an empty value is the same as none', () => {
    const token = 'a'.repeat(32);
    expect(parseConfig({ ...minimal(), ADMIN_TOKEN: token, TEMPORAL_UI_URL: 'http://ui:8080/' }).admin).toMatchObject({
      token,
      temporalUiUrl: 'http://ui:8080',
    });
    expect(parseConfig({ ...minimal(), ADMIN_TOKEN: '', TEMPORAL_UI_URL: '' }).admin).not.toHaveProperty('token');
  });

  it('refuses a short or spaced admin token and a UI URL that is not http(s), naming the variable', () => {
    expect(configError({ ...minimal(), ADMIN_TOKEN: 'short' }).message).toMatch(/ADMIN_TOKEN is malformed: .*32/);
    expect(configError({ ...minimal(), ADMIN_TOKEN: `${'a'.repeat(32)} b` }).message).toMatch(/ADMIN_TOKEN/);
    expect(configError({ ...minimal(), TEMPORAL_UI_URL: 'ui:8080' }).message).toMatch(/TEMPORAL_UI_URL is malformed/);
  });

  it('reads the codec encode token, a credential of its own: off when unset, refused short or equal to the admin token', () => {
    const admin = 'a'.repeat(32);
    const encode = 'e'.repeat(32);
    expect(parseConfig({ ...minimal(), ADMIN_TOKEN: admin }).codecEndpoint.encodeToken).toBeUndefined();
    expect(
      parseConfig({ ...minimal(), ADMIN_TOKEN: admin, CODEC_ENCODE_TOKEN: encode }).codecEndpoint.encodeToken,
    ).toBe(encode);
    expect(configError({ ...minimal(), CODEC_ENCODE_TOKEN: 'short' }).message).toMatch(
      /CODEC_ENCODE_TOKEN is malformed/,
    );
    expect(configError({ ...minimal(), ADMIN_TOKEN: admin, CODEC_ENCODE_TOKEN: admin }).message).toMatch(
      /CODEC_ENCODE_TOKEN is malformed: must differ from ADMIN_TOKEN/,
    );
  });

  it('leaves Worker Versioning off by default, and pins with the deployment, build id and promotion given', () => {
    expect(parseConfig(minimal()).temporal.versioning).toBeUndefined();
    expect(parseConfig({ ...minimal(), WORKER_VERSIONING: 'pinned' }).temporal.versioning).toEqual({
      deploymentName: 'durable-mcp',
      promote: 'current',
    });
    const set = parseConfig({
      ...minimal(),
      WORKER_VERSIONING: 'pinned',
      WORKER_DEPLOYMENT_NAME: 'approvals',
      WORKER_BUILD_ID: 'tools@2.0.0',
      WORKER_PROMOTE: 'off',
    });
    expect(set.temporal.versioning).toEqual({ deploymentName: 'approvals', buildId: 'tools@2.0.0', promote: 'off' });
  });

  it('refuses a deployment name with a dot and an unknown versioning mode, naming them', () => {
    expect(configError({ ...minimal(), WORKER_DEPLOYMENT_NAME: 'my.app' }).message).toMatch(/WORKER_DEPLOYMENT_NAME/);
    expect(configError({ ...minimal(), WORKER_VERSIONING: 'on' }).message).toMatch(/WORKER_VERSIONING/);
  });

  it('keys fairness by principal by default; by tenant only with the claim that names one', () => {
    expect(parseConfig(minimal()).temporal.fairnessKey).toBe('principal');
    const oauth = {
      AUTH_MODE: 'oauth',
      MCP_RESOURCE_URL: 'https://mcp.example.com/mcp',
      OAUTH_ISSUERS: 'https://auth.example.com',
    };
    const tenant = parseConfig({ ...minimal(), ...oauth, FAIRNESS_KEY: 'tenant', TENANT_CLAIM: 'org_id' });
    expect(tenant.temporal.fairnessKey).toBe('tenant');
    expect(tenant.auth.mode === 'oauth' && tenant.auth.tenantClaim).toBe('org_id');
    expect(configError({ ...minimal(), FAIRNESS_KEY: 'tenant' }).message).toMatch(
      /TENANT_CLAIM is missing: required with FAIRNESS_KEY=tenant/,
    );
    expect(configError({ ...minimal(), FAIRNESS_KEY: 'client' }).message).toMatch(/FAIRNESS_KEY/);
  });

  it('turns the worker metrics listener off with WORKER_METRICS_PORT=0', () => {
    expect(parseConfig({ ...minimal(), WORKER_METRICS_PORT: '0' }).workerMetrics).toBeUndefined();
    expect(
      parseConfig({ ...minimal(), WORKER_METRICS_HOST: '0.0.0.0', WORKER_METRICS_PORT: '9100' }).workerMetrics,
    ).toEqual({ host: '0.0.0.0', port: 9100 });
  });

  it('reads the payload codec key ring apart from the requestState one, and refuses plaintext by default', () => {
    const second = key32();
    const { payloadCodec, requestState } = parseConfig({
      ...minimal(),
      PAYLOAD_CODEC_KEYS: `p2:${second},p1:${CODEC_KEY}`,
    });
    expect(payloadCodec.keys.map((k) => k.kid)).toEqual(['p2', 'p1']);
    expect(payloadCodec.keys[0]?.key.equals(Buffer.from(second, 'base64'))).toBe(true);
    expect(requestState.keys.map((k) => k.kid)).toEqual(['k1']);
    // A fresh deployment acts on encrypted payloads only; accepting plaintext is for an upgrade.
    expect(payloadCodec.acceptPlaintext).toBe(false);
    expect(parseConfig({ ...minimal(), PAYLOAD_CODEC_ACCEPT_PLAINTEXT: 'true' }).payloadCodec.acceptPlaintext).toBe(
      true,
    );
  });

  it('refuses payloads encrypted before binding by default, and binds to the namespace served', () => {
    const { payloadCodec } = parseConfig({ ...minimal(), TEMPORAL_NAMESPACE: 'mcp-prod' });
    expect(payloadCodec).toMatchObject({ unbound: 'refuse', namespace: 'mcp-prod' });
    for (const unbound of ['accept', 'write'])
      expect(parseConfig({ ...minimal(), PAYLOAD_CODEC_UNBOUND: unbound }).payloadCodec.unbound).toBe(unbound);
    expect(configError({ ...minimal(), PAYLOAD_CODEC_UNBOUND: 'true' }).message).toMatch(/PAYLOAD_CODEC_UNBOUND/);
  });

  it('refuses a missing or malformed payload codec key ring and a switch that is not true or false, naming them', () => {
    const { PAYLOAD_CODEC_KEYS: _omitted, ...rest } = minimal();
    expect(configError(rest).message).toMatch(/PAYLOAD_CODEC_KEYS is not set/);
    expect(
      configError({ ...minimal(), PAYLOAD_CODEC_KEYS: `p1:${randomBytes(16).toString('base64')}` }).message,
    ).toMatch(/PAYLOAD_CODEC_KEYS: key "p1" must decode to 32 bytes, got 16/);
    expect(configError({ ...minimal(), PAYLOAD_CODEC_KEYS: `p1:${KEY},p1:${key32()}` }).message).toMatch(
      /PAYLOAD_CODEC_KEYS: key ids must be unique/,
    );
    expect(configError({ ...minimal(), PAYLOAD_CODEC_ACCEPT_PLAINTEXT: 'yes' }).message).toMatch(
      /PAYLOAD_CODEC_ACCEPT_PLAINTEXT is malformed: must be true or false/,
    );
  });

  it("lets the codec endpoint answer the Temporal UI's origin and the listed ones, with its budgets", () => {
    expect(parseConfig(minimal()).codecEndpoint).toEqual({
      allowedOrigins: [],
      maxBodyBytes: 4_194_304,
      sessionTtlMs: 3_600_000,
      trustLoopback: false,
    });
    const config = parseConfig({
      ...minimal(),
      TEMPORAL_UI_URL: 'http://127.0.0.1:8080/ui/',
      CODEC_ALLOWED_ORIGINS: 'http://localhost:8080/, https://temporal.example.com,http://127.0.0.1:8080',
    });
    expect(config.codecEndpoint.allowedOrigins).toEqual([
      'http://127.0.0.1:8080',
      'http://localhost:8080',
      'https://temporal.example.com',
    ]);
    expect(configError({ ...minimal(), CODEC_ALLOWED_ORIGINS: 'http://ui:8080/path' }).message).toMatch(
      /CODEC_ALLOWED_ORIGINS is malformed/,
    );
    expect(configError({ ...minimal(), CODEC_MAX_BODY_BYTES: '10' }).message).toMatch(/CODEC_MAX_BODY_BYTES/);
  });

  it('signs a codec browser in for an hour by default, under CODEC_SESSION_EPOCH when set', () => {
    expect(parseConfig(minimal()).codecEndpoint.sessionEpoch).toBeUndefined();
    expect(parseConfig({ ...minimal(), CODEC_SESSION_EPOCH: '2026-08-01' }).codecEndpoint.sessionEpoch).toBe(
      '2026-08-01',
    );
    expect(parseConfig({ ...minimal(), CODEC_SESSION_EPOCH: '' }).codecEndpoint.sessionEpoch).toBeUndefined();
    expect(configError({ ...minimal(), CODEC_SESSION_EPOCH: 'two words' }).message).toMatch(
      /CODEC_SESSION_EPOCH is malformed/,
    );
    expect(configError({ ...minimal(), CODEC_SESSION_TTL_MS: '1000' }).message).toMatch(/CODEC_SESSION_TTL_MS/);
  });

  it('reads the budget of wrong admin tokens per client address, and refuses none at all', () => {
    expect(
      parseConfig({ ...minimal(), ADMIN_TOKEN_MAX_FAILURES: '3', ADMIN_TOKEN_FAILURE_WINDOW_MS: '2000' }).admin
        .tokenGuesses,
    ).toEqual({ maxFailures: 3, windowMs: 2000 });
    expect(configError({ ...minimal(), ADMIN_TOKEN_MAX_FAILURES: '0' }).message).toMatch(
      /ADMIN_TOKEN_MAX_FAILURES is malformed/,
    );
    expect(configError({ ...minimal(), ADMIN_TOKEN_FAILURE_WINDOW_MS: '10' }).message).toMatch(
      /ADMIN_TOKEN_FAILURE_WINDOW_MS is malformed/,
    );
  });

  it('believes no forwarded header by default; TRUST_PROXY names the proxies or their hops, never everyone', () => {
    expect(parseConfig(minimal()).http.trustProxy).toBe(false);
    expect(parseConfig({ ...minimal(), TRUST_PROXY: 'false' }).http.trustProxy).toBe(false);
    expect(parseConfig({ ...minimal(), TRUST_PROXY: '1' }).http.trustProxy).toBe(1);
    expect(
      parseConfig({ ...minimal(), TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8, 192.0.2.10,uniquelocal' }).http
        .trustProxy,
    ).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.10', 'uniquelocal']);
    expect(parseConfig({ ...minimal(), TRUST_PROXY: '0.0.0.0/1,::ffff:10.0.0.0/104' }).http.trustProxy).toEqual([
      '0.0.0.0/1',
      '::ffff:10.0.0.0/104',
    ]);
    // Trusting every hop lets any client write its own address and scheme.
    // So does a network of every address: a /0, or the IPv4-mapped range that holds every IPv4 client.
    const everyone = ['0.0.0.0/0', '::/0', '10.0.0.0/0', 'loopback,0.0.0.0/0', '::ffff:0:0/96', '::ffff:0.0.0.0/80'];
    for (const value of ['true', '0', '11', 'proxy.example.com', '10.0.0.0/33', '10.0.0.0/8/1', '*', ...everyone]) {
      expect(configError({ ...minimal(), TRUST_PROXY: value }).message).toMatch(/TRUST_PROXY is malformed/);
    }
  });

  it('refuses a key-set cooldown under 1 s and a key-set cache under a minute, naming each and why', () => {
    // 0 would let every token with a made-up key id, or every request while the issuer is down, cost a fetch.
    for (const value of ['0', '999']) {
      expect(configError({ ...minimal(), OAUTH_JWKS_COOLDOWN_MS: value }).message).toMatch(
        /OAUTH_JWKS_COOLDOWN_MS is malformed: must be at least 1000: .*made-up key id/,
      );
    }
    for (const value of ['0', '59999']) {
      expect(configError({ ...minimal(), OAUTH_JWKS_CACHE_MAX_AGE_MS: value }).message).toMatch(
        /OAUTH_JWKS_CACHE_MAX_AGE_MS is malformed: must be at least 60000: /,
      );
    }
    const oauth = {
      ...minimal(),
      AUTH_MODE: 'oauth',
      MCP_RESOURCE_URL: 'https://mcp.example.com/mcp',
      OAUTH_ISSUERS: 'https://auth.example.com',
    };
    expect(parseConfig(oauth).auth).toMatchObject({ jwks: { cacheMaxAgeMs: 600_000, cooldownMs: 30_000 } });
    expect(
      parseConfig({ ...oauth, OAUTH_JWKS_COOLDOWN_MS: '1000', OAUTH_JWKS_CACHE_MAX_AGE_MS: '60000' }).auth,
    ).toMatchObject({ jwks: { cacheMaxAgeMs: 60_000, cooldownMs: 1000 } });
  });

  it('leaves traces off unless an OTLP endpoint is set, by the standard OpenTelemetry names', () => {
    expect(parseConfig(minimal()).tracing).toBeUndefined();
    expect(
      parseConfig({ ...minimal(), OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_SERVICE_NAME: 'x' }).tracing,
    ).toBeUndefined();
    expect(parseConfig({ ...minimal(), OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      sampler: { name: 'parentbased_always_on', ratio: 1 },
      limits: { attributeValueLength: 1024, attributeCount: 64, maxQueuedSpans: 2048 },
    });
    expect(
      parseConfig({
        ...minimal(),
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/ingest',
        OTEL_SERVICE_NAME: 'mcp-eu',
        OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '256',
        OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '16',
        OTEL_BSP_MAX_QUEUE_SIZE: '100',
      }).tracing,
    ).toEqual({
      tracesUrl: 'https://traces.example.com/ingest',
      serviceName: 'mcp-eu',
      sampler: { name: 'parentbased_always_on', ratio: 1 },
      limits: { attributeValueLength: 256, attributeCount: 16, maxQueuedSpans: 100 },
    });
    expect(
      configError({ ...minimal(), OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_BSP_MAX_QUEUE_SIZE: '0' }).message,
    ).toMatch(/OTEL_BSP_MAX_QUEUE_SIZE/);
    expect(configError({ ...minimal(), OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }).message).toMatch(
      /OTEL_EXPORTER_OTLP_ENDPOINT is malformed: must be an http:\/\/ or https:\/\/ URL/,
    );
  });
});

// ------------------------------------------------------------------------------------------------
// Exposure: an unauthenticated API (AUTH_MODE=off) on loopback only, unless ALLOW_UNAUTHENTICATED
// ------------------------------------------------------------------------------------------------

describe('checkApiExposure', () => {
  const oauth = {
    AUTH_MODE: 'oauth',
    MCP_RESOURCE_URL: 'https://mcp.example.com/mcp',
    OAUTH_ISSUERS: 'https://auth.example.com',
  };
  const exposure = (env: Record<string, string>) => () => checkApiExposure(parseConfig({ ...minimal(), ...env }));

  it.each(['127.0.0.1', '127.8.9.10', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST'])(
    'treats %s as loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
      expect(exposure({ HOST: host })).not.toThrow();
    },
  );

  it.each([
    '0.0.0.0',
    '::',
    '10.0.0.5',
    '192.168.1.2',
    '128.0.0.1',
    '::ffff:10.0.0.1',
    'mcp.example.com',
    'localhost.example.com',
  ])('refuses AUTH_MODE=off on %s, naming AUTH_MODE and ALLOW_UNAUTHENTICATED', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
    let caught: unknown;
    try {
      exposure({ HOST: host })();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message).toContain(`AUTH_MODE=off on HOST=${host}`);
    expect(message).toContain('ALLOW_UNAUTHENTICATED=true');
    expect(message).toContain('AUTH_MODE=oauth');
  });

  it('refuses by default: AUTH_MODE is off unless set, and ALLOW_UNAUTHENTICATED is false unless set', () => {
    const config = parseConfig({ ...minimal(), HOST: '0.0.0.0' });
    expect(config.auth.mode).toBe('off');
    expect(config.http.allowUnauthenticated).toBe(false);
    expect(() => checkApiExposure(config)).toThrow(ConfigError);
    expect(exposure({ HOST: '0.0.0.0', ALLOW_UNAUTHENTICATED: 'false' })).toThrow(/ALLOW_UNAUTHENTICATED/);
  });

  it('lets AUTH_MODE=off serve a non-loopback HOST when ALLOW_UNAUTHENTICATED=true says so', () => {
    expect(parseConfig({ ...minimal(), ALLOW_UNAUTHENTICATED: 'true' }).http.allowUnauthenticated).toBe(true);
    expect(exposure({ HOST: '0.0.0.0', ALLOW_UNAUTHENTICATED: 'true' })).not.toThrow();
  });

  it('lets AUTH_MODE=oauth serve any HOST', () => {
    expect(exposure({ ...oauth, HOST: '0.0.0.0' })).not.toThrow();
  });

  it('refuses an ALLOW_UNAUTHENTICATED that is not true or false, naming it', () => {
    expect(configError({ ...minimal(), ALLOW_UNAUTHENTICATED: 'yes' }).message).toMatch(
      /ALLOW_UNAUTHENTICATED is malformed: must be true or false/,
    );
  });

  describe('at start (loadConfigOrExit)', () => {
    let stderr: jest.SpyInstance;
    beforeEach(() => {
      jest.replaceProperty(process, 'env', { ...minimal(), HOST: '0.0.0.0' } as NodeJS.ProcessEnv);
      jest.spyOn(process, 'exit').mockImplementation((code) => {
        throw new Error(`exit ${code}`);
      });
      stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    });
    afterEach(() => jest.restoreAllMocks());

    it.each(['api', 'all'] as const)(
      'stops a process serving the API (%s) with exit code 78 and the reason',
      (role) => {
        expect(() => loadConfigOrExit(role)).toThrow('exit 78');
        expect(String(stderr.mock.calls[0]?.[0])).toMatch(
          /AUTH_MODE=off on HOST=0\.0\.0\.0.*ALLOW_UNAUTHENTICATED=true/s,
        );
      },
    );

    it('leaves a worker alone: it listens on no HOST', () => {
      expect(loadConfigOrExit('worker').http.host).toBe('0.0.0.0');
    });
  });
  // A deployment gives each process only the secrets it uses (lib/config/process-role.ts).
  describe('per process, without the secrets only the other one uses', () => {
    const webhooks = { WEBHOOK_URLS: 'https://bots.example/hook' };
    const introspection = {
      AUTH_MODE: 'oauth',
      MCP_RESOURCE_URL: 'https://mcp.example.com/mcp',
      OAUTH_ISSUERS: 'https://auth.example.com',
      OAUTH_INTROSPECTION_CLIENT_ID: 'mcp',
    };

    it('starts an api that knows webhooks are on without their secrets (the worker sends them)', () => {
      expect(parseConfig({ ...minimal(), ...webhooks }, 'api').webhooks.urls).toEqual(['https://bots.example/hook']);
      expect(() => parseConfig({ ...minimal(), ...webhooks }, 'worker')).toThrow(/WEBHOOK_SECRETS is missing/);
      expect(() => parseConfig({ ...minimal(), ...webhooks })).toThrow(/WEBHOOK_SECRETS is missing/);
    });

    it('starts a worker without the introspection secret, which the api alone needs', () => {
      expect(() => parseConfig({ ...minimal(), ...introspection }, 'worker')).not.toThrow();
      expect(() => parseConfig({ ...minimal(), ...introspection }, 'api')).toThrow(/go together/);
    });
  });
});
