/**
 * How the service authenticates to Temporal and protects the connection: TLS (the server's CA and
 * name), mutual TLS (a client certificate and its key) and an API key, named as the Temporal CLI's
 * and SDKs' environment configuration names them (TEMPORAL_TLS, TEMPORAL_TLS_SERVER_CA_CERT_PATH,
 * TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_KEY_PATH, TEMPORAL_TLS_SERVER_NAME,
 * TEMPORAL_API_KEY, TEMPORAL_GRPC_META_*), so one environment serves the CLI and the service.
 *
 * Everything is checked at start: each file exists and is readable, holds PEM that parses, the
 * certificate and the key come together and belong together. The files are read once here; a
 * rotated certificate takes a restart. lib/temporal/connection.ts turns the result into the SDK's
 * connection options.
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { documented } from './variables/documented';
import { unsetWhenEmpty } from './variables/value-kinds';

export const TEMPORAL_SECURITY_ENV = {
  TEMPORAL_TLS: documented(
    unsetWhenEmpty(z.enum(['true', 'false'], { message: 'must be true or false' })),
    "`true` or `false`: TLS to Temporal, with the system's trusted roots unless `TEMPORAL_TLS_SERVER_CA_CERT_PATH` names a CA; `false` with an API key sends the key in plaintext ([Connecting to a secured Temporal](deploying.md#connecting-to-a-secured-temporal))",
    '(none: on when any setting below is given)',
  ),
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: documented(
    unsetWhenEmpty(z.string().min(1)),
    "PEM file of the CA (or CAs) the server's certificate must chain to (a self-hosted cluster's private CA)",
    "(none: the system's roots)",
  ),
  TEMPORAL_TLS_CLIENT_CERT_PATH: documented(
    unsetWhenEmpty(z.string().min(1)),
    'PEM file of the client certificate for mutual TLS (its chain may follow it); with `TEMPORAL_TLS_CLIENT_KEY_PATH`, both or neither; its expiry is checked at start',
  ),
  TEMPORAL_TLS_CLIENT_KEY_PATH: documented(
    unsetWhenEmpty(z.string().min(1)),
    "PEM file of the client certificate's unencrypted private key; it must belong to the certificate (checked at start)",
  ),
  TEMPORAL_TLS_SERVER_NAME: documented(
    unsetWhenEmpty(
      z.string().regex(/^[A-Za-z0-9*]([A-Za-z0-9.*-]{0,252})$/, 'must be a host name such as temporal.example.com'),
    ),
    "the name the server's certificate must be valid for, also sent as SNI (an address by IP, or through a proxy)",
    '(none: the host of `TEMPORAL_ADDRESS`)',
  ),
  TEMPORAL_API_KEY: documented(
    unsetWhenEmpty(z.string().regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces or line breaks')),
    'sent as `authorization: Bearer <key>` on every Temporal call (Temporal Cloud API keys); turns TLS on unless `TEMPORAL_TLS=false`; may be combined with mutual TLS',
    '(none)',
  ),
};

export type TemporalSecurityEnv = {
  [K in keyof typeof TEMPORAL_SECURITY_ENV]?: z.infer<(typeof TEMPORAL_SECURITY_ENV)[K]>;
};

/** gRPC metadata the service sends on every Temporal call: `TEMPORAL_GRPC_META_SOME_HEADER=v` is `some-header: v`. */
export const GRPC_META_PREFIX = 'TEMPORAL_GRPC_META_';

/** The doc of the variables GRPC_META_PREFIX names, which the schema cannot declare one by one. */
export const GRPC_META_DOC = {
  name: `${GRPC_META_PREFIX}<NAME>`,
  shownDefault: '(none)',
  description:
    'extra gRPC metadata on every Temporal call, named as the Temporal CLI names it (`TEMPORAL_GRPC_META_X_TENANT` is `x-tenant`); not `authorization` together with `TEMPORAL_API_KEY`',
};

export interface TemporalTlsConfig {
  /** The server's CA bundle (PEM) and where it came from; unset, the system's roots. */
  serverRootCa?: { pem: Buffer; path: string };
  /** The client certificate and key (PEM), for mutual TLS. */
  clientCert?: { crt: Buffer; key: Buffer; certPath: string; keyPath: string; subject: string; validTo: string };
  serverName?: string;
}

export interface TemporalSecurityConfig {
  /** TLS on (with what it needs), or undefined for a plaintext connection. */
  tls?: TemporalTlsConfig;
  apiKey?: string;
  /** Extra gRPC metadata (TEMPORAL_GRPC_META_*), lower-case names. */
  metadata: Readonly<Record<string, string>>;
}

/** Why a setting is refused; lib/config.ts reports it as a ConfigError. */
/** A Temporal frontend and how to reach it securely: what every client and worker of the service connects to. */
export interface TemporalTarget {
  address: string;
  security: TemporalSecurityConfig;
}

export class TemporalSecurityError extends Error {}

function readPem(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'is a directory'
            : (error as Error).message;
    throw new TemporalSecurityError(`${variable}: cannot read ${path}: ${why}`);
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate of a PEM file, parsed; at least one. */
function certificates(variable: string, path: string, pem: Buffer): X509Certificate[] {
  const blocks = pem.toString('utf8').match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) {
    throw new TemporalSecurityError(`${variable}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  return blocks.map((block, index) => {
    try {
      return new X509Certificate(block);
    } catch (error) {
      throw new TemporalSecurityError(
        `${variable}: certificate ${index + 1} of ${path} does not parse: ${(error as Error).message}`,
      );
    }
  });
}

function notExpired(variable: string, path: string, cert: X509Certificate, now: Date): void {
  if (new Date(cert.validTo).getTime() < now.getTime()) {
    throw new TemporalSecurityError(
      `${variable}: the certificate in ${path} (${cert.subject}) expired on ${cert.validTo}`,
    );
  }
}

/**
 * The security part of the configuration from the parsed variables and the raw environment (for
 * TEMPORAL_GRPC_META_*). Throws TemporalSecurityError naming the variable.
 */
export function parseTemporalSecurity(
  env: TemporalSecurityEnv,
  source: Record<string, string | undefined>,
  now = new Date(),
): TemporalSecurityConfig {
  const metadata = grpcMetadata(source);
  if (env.TEMPORAL_API_KEY !== undefined && 'authorization' in metadata) {
    throw new TemporalSecurityError(
      'TEMPORAL_GRPC_META_AUTHORIZATION and TEMPORAL_API_KEY both set the authorization header: set one',
    );
  }
  const tlsSettings = (
    [
      'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
      'TEMPORAL_TLS_CLIENT_CERT_PATH',
      'TEMPORAL_TLS_CLIENT_KEY_PATH',
      'TEMPORAL_TLS_SERVER_NAME',
    ] as const
  ).filter((name) => env[name] !== undefined);
  const base = { ...(env.TEMPORAL_API_KEY !== undefined ? { apiKey: env.TEMPORAL_API_KEY } : {}), metadata };

  if (env.TEMPORAL_TLS === 'false') {
    if (tlsSettings.length > 0) {
      throw new TemporalSecurityError(`TEMPORAL_TLS is false, but ${tlsSettings.join(', ')} only apply with TLS on`);
    }
    return base;
  }
  const on = env.TEMPORAL_TLS === 'true' || tlsSettings.length > 0 || env.TEMPORAL_API_KEY !== undefined;
  if (!on) return base;

  const certPath = env.TEMPORAL_TLS_CLIENT_CERT_PATH;
  const keyPath = env.TEMPORAL_TLS_CLIENT_KEY_PATH;
  if ((certPath === undefined) !== (keyPath === undefined)) {
    throw new TemporalSecurityError(
      certPath === undefined
        ? 'TEMPORAL_TLS_CLIENT_KEY_PATH is set without TEMPORAL_TLS_CLIENT_CERT_PATH: mutual TLS needs both'
        : 'TEMPORAL_TLS_CLIENT_CERT_PATH is set without TEMPORAL_TLS_CLIENT_KEY_PATH: mutual TLS needs both',
    );
  }

  const tls: TemporalTlsConfig = {};
  if (env.TEMPORAL_TLS_SERVER_CA_CERT_PATH !== undefined) {
    const path = env.TEMPORAL_TLS_SERVER_CA_CERT_PATH;
    const pem = readPem('TEMPORAL_TLS_SERVER_CA_CERT_PATH', path);
    certificates('TEMPORAL_TLS_SERVER_CA_CERT_PATH', path, pem);
    tls.serverRootCa = { pem, path };
  }
  if (certPath !== undefined && keyPath !== undefined) {
    const crt = readPem('TEMPORAL_TLS_CLIENT_CERT_PATH', certPath);
    const key = readPem('TEMPORAL_TLS_CLIENT_KEY_PATH', keyPath);
    // The first certificate is the client's own; any after it are its chain.
    const [leaf] = certificates('TEMPORAL_TLS_CLIENT_CERT_PATH', certPath, crt) as [X509Certificate];
    notExpired('TEMPORAL_TLS_CLIENT_CERT_PATH', certPath, leaf, now);
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(key);
    } catch (error) {
      throw new TemporalSecurityError(
        `TEMPORAL_TLS_CLIENT_KEY_PATH: ${keyPath} holds no readable private key (PEM, unencrypted): ${(error as Error).message}`,
      );
    }
    if (!leaf.checkPrivateKey(privateKey)) {
      throw new TemporalSecurityError(
        `TEMPORAL_TLS_CLIENT_KEY_PATH: the key in ${keyPath} does not belong to the certificate in ${certPath} (TEMPORAL_TLS_CLIENT_CERT_PATH)`,
      );
    }
    tls.clientCert = { crt, key, certPath, keyPath, subject: leaf.subject.replace(/\n/g, ', '), validTo: leaf.validTo };
  }
  if (env.TEMPORAL_TLS_SERVER_NAME !== undefined) tls.serverName = env.TEMPORAL_TLS_SERVER_NAME;
  return { ...base, tls };
}

const HEADER_NAME = /^[a-z0-9][a-z0-9_.-]*$/;

function grpcMetadata(source: Record<string, string | undefined>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [variable, value] of Object.entries(source)) {
    if (!variable.startsWith(GRPC_META_PREFIX) || value === undefined || value === '') continue;
    const name = variable.slice(GRPC_META_PREFIX.length).toLowerCase().replace(/_/g, '-');
    if (!HEADER_NAME.test(name) || name.endsWith('-bin') || name.startsWith('grpc-')) {
      throw new TemporalSecurityError(`${variable}: "${name}" is not a header name the service can send`);
    }
    if (!/^[\x20-\x7e]*$/.test(value)) {
      throw new TemporalSecurityError(`${variable}: must be printable ASCII (no line breaks)`);
    }
    metadata[name] = value;
  }
  return metadata;
}
