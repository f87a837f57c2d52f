// Pins the Temporal connection security settings: what turns TLS on, what is checked at start
// (files, PEM, the pair), and the SDK options every connection is built from.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, parseConfig } from '../config';
import { temporalConnectionOptions } from './connection';
import { parseTemporalSecurity } from '../config/temporal-security';
import { hasOpenssl, makeTestPki, type TestPki } from '../../test/support/test-pki';

const KEY = Buffer.alloc(32, 1).toString('base64');
const minimal = (): Record<string, string | undefined> => ({
  DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
  REQUEST_STATE_KEYS: `k1:${KEY}`,
  PAYLOAD_CODEC_KEYS: `p1:${KEY}`,
  TEMPORAL_ADDRESS: 'temporal.example.com:7233',
});

function refused(env: Record<string, string | undefined>): string {
  try {
    parseConfig({ ...minimal(), ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

const describeWithOpenssl = hasOpenssl() ? describe : describe.skip;

describe('Temporal connection security', () => {
  it('connects in plaintext by default, with TLS off explicitly (the SDK would turn it on for an API key)', () => {
    const options = temporalConnectionOptions(parseConfig(minimal()).temporal);
    expect(options).toEqual({ address: 'temporal.example.com:7233', tls: false });
  });

  it('turns TLS on with TEMPORAL_TLS=true, using the system roots', () => {
    const options = temporalConnectionOptions(parseConfig({ ...minimal(), TEMPORAL_TLS: 'true' }).temporal);
    expect(options.tls).toEqual({});
  });

  it('sends an API key as the SDK does (authorization: Bearer), TLS on by itself', () => {
    const options = temporalConnectionOptions(parseConfig({ ...minimal(), TEMPORAL_API_KEY: 'eyJ.abc.def' }).temporal);
    expect(options).toEqual({ address: 'temporal.example.com:7233', tls: {}, apiKey: 'eyJ.abc.def' });
  });

  it('keeps an API key over plaintext when TEMPORAL_TLS=false says so', () => {
    const options = temporalConnectionOptions(
      parseConfig({ ...minimal(), TEMPORAL_API_KEY: 'k', TEMPORAL_TLS: 'false' }).temporal,
    );
    expect(options).toEqual({ address: 'temporal.example.com:7233', tls: false, apiKey: 'k' });
  });

  it('sends TEMPORAL_GRPC_META_* as metadata, named as the Temporal CLI names them', () => {
    const options = temporalConnectionOptions(
      parseConfig({ ...minimal(), TEMPORAL_GRPC_META_X_TENANT_ID: 'acme', TEMPORAL_GRPC_META_EMPTY: '' }).temporal,
    );
    expect(options.metadata).toEqual({ 'x-tenant-id': 'acme' });
  });

  it.each([
    [{ TEMPORAL_TLS: 'yes' }, /TEMPORAL_TLS is malformed: must be true or false/],
    [{ TEMPORAL_API_KEY: 'has space' }, /TEMPORAL_API_KEY is malformed/],
    [{ TEMPORAL_API_KEY: 'k\n' }, /TEMPORAL_API_KEY is malformed/],
    [{ TEMPORAL_TLS_SERVER_NAME: 'bad name' }, /TEMPORAL_TLS_SERVER_NAME is malformed/],
    [
      { TEMPORAL_TLS: 'false', TEMPORAL_TLS_SERVER_NAME: 'a.test' },
      /TEMPORAL_TLS is false, but TEMPORAL_TLS_SERVER_NAME/,
    ],
    [{ TEMPORAL_API_KEY: 'k', TEMPORAL_GRPC_META_AUTHORIZATION: 'Bearer x' }, /both set the authorization header/],
    [{ TEMPORAL_GRPC_META_X: 'a\nb' }, /TEMPORAL_GRPC_META_X: must be printable ASCII/],
    [
      { TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/nonexistent/ca.pem' },
      /TEMPORAL_TLS_SERVER_CA_CERT_PATH: cannot read \/nonexistent\/ca.pem: no such file/,
    ],
  ])('refuses %j', (env, message) => {
    expect(refused(env)).toMatch(message);
  });

  describeWithOpenssl('with certificate files', () => {
    let pki: TestPki;
    beforeAll(() => {
      pki = makeTestPki();
    });
    afterAll(() => pki?.remove());

    const mtls = () => ({
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert,
      TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert,
      TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey,
      TEMPORAL_TLS_SERVER_NAME: 'temporal.test',
    });

    it('builds the SDK TLS options from the files: CA, client pair, server name override', () => {
      const config = parseConfig({ ...minimal(), ...mtls() });
      const options = temporalConnectionOptions(config.temporal);
      const tls = options.tls as Exclude<typeof options.tls, false>;
      expect(tls.serverNameOverride).toBe('temporal.test');
      expect(Buffer.from(tls.serverRootCACertificate!).toString()).toMatch(/BEGIN CERTIFICATE/);
      expect(Buffer.from(tls.clientCertPair!.crt).toString()).toMatch(/BEGIN CERTIFICATE/);
      expect(Buffer.from(tls.clientCertPair!.key).toString()).toMatch(/BEGIN PRIVATE KEY/);
      expect(config.temporal.security.tls?.clientCert?.subject).toBe('CN=durable-mcp');
      expect(options.apiKey).toBeUndefined();
    });

    it('combines mutual TLS with an API key', () => {
      const options = temporalConnectionOptions(
        parseConfig({ ...minimal(), ...mtls(), TEMPORAL_API_KEY: 'k' }).temporal,
      );
      expect(options.apiKey).toBe('k');
      expect((options.tls as { clientCertPair?: unknown }).clientCertPair).toBeDefined();
    });

    it('takes a CA bundle of several certificates', () => {
      const bundle = path.join(pki.dir, 'bundle.pem');
      copyFileSync(pki.caCert, bundle);
      writeFileSync(bundle, readFileSync(path.join(pki.dir, 'other-ca.crt')), { flag: 'a' });
      expect(() => parseConfig({ ...minimal(), TEMPORAL_TLS_SERVER_CA_CERT_PATH: bundle })).not.toThrow();
    });

    it('refuses a certificate without its key, and a key without its certificate', () => {
      expect(refused({ TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert })).toMatch(
        /TEMPORAL_TLS_CLIENT_CERT_PATH is set without TEMPORAL_TLS_CLIENT_KEY_PATH/,
      );
      expect(refused({ TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey })).toMatch(
        /TEMPORAL_TLS_CLIENT_KEY_PATH is set without TEMPORAL_TLS_CLIENT_CERT_PATH/,
      );
    });

    it('refuses a key that does not belong to the certificate', () => {
      expect(refused({ ...mtls(), TEMPORAL_TLS_CLIENT_KEY_PATH: pki.strayKey })).toMatch(
        /TEMPORAL_TLS_CLIENT_KEY_PATH: the key in .*stray.key does not belong to the certificate in .*client.crt/,
      );
    });

    it('refuses files that hold no PEM certificate or key', () => {
      expect(refused({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.clientKey })).toMatch(
        /TEMPORAL_TLS_SERVER_CA_CERT_PATH: .*client.key holds no PEM certificate/,
      );
      expect(refused({ ...mtls(), TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientCert })).toMatch(
        /TEMPORAL_TLS_CLIENT_KEY_PATH: .*client.crt holds no readable private key/,
      );
      const broken = path.join(pki.dir, 'broken.pem');
      writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
      expect(refused({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: broken })).toMatch(
        /TEMPORAL_TLS_SERVER_CA_CERT_PATH: certificate 1 of .*broken.pem does not parse/,
      );
    });

    it('refuses an expired client certificate', () => {
      const later = new Date(Date.now() + 30 * 86_400_000);
      expect(() => parseTemporalSecurity(mtls(), {}, later)).toThrow(
        /TEMPORAL_TLS_CLIENT_CERT_PATH: the certificate in .*client.crt \(CN=durable-mcp\) expired on/,
      );
    });

    it('refuses a directory where a file belongs', () => {
      expect(refused({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.dir })).toMatch(/is a directory/);
    });
  });
});
