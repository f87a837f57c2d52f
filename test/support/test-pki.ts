/**
 * A throwaway PKI for TLS tests, made with the `openssl` CLI into a temporary folder: a CA, a
 * server certificate for `temporal.test` (and 127.0.0.1), a client certificate the CA signed, and
 * an intruder's client certificate signed by another CA the server does not trust.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const TEST_SERVER_NAME = 'temporal.test';

export interface TestPki {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** Signed by a CA the server does not trust. */
  intruderCert: string;
  intruderKey: string;
  /** A second key, which belongs to no certificate here. */
  strayKey: string;
  remove(): void;
}

export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function makeTestPki(): TestPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-pki-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const newKey = (name: string) =>
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file(name));
  const ca = (name: string, cn: string) => {
    newKey(`${name}.key`);
    openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      file(`${name}.key`),
      '-out',
      file(`${name}.crt`),
      '-days',
      '2',
      '-subj',
      `/CN=${cn}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
  };
  const leaf = (name: string, cn: string, issuer: string, extensions: string) => {
    newKey(`${name}.key`);
    openssl('req', '-new', '-key', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', `/CN=${cn}`);
    writeFileSync(file(`${name}.ext`), extensions);
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file(`${issuer}.crt`),
      '-CAkey',
      file(`${issuer}.key`),
      '-CAcreateserial',
      '-out',
      file(`${name}.crt`),
      '-days',
      '2',
      '-extfile',
      file(`${name}.ext`),
    );
  };
  ca('ca', 'durable-mcp test CA');
  ca('other-ca', 'untrusted test CA');
  leaf(
    'server',
    TEST_SERVER_NAME,
    'ca',
    `subjectAltName=DNS:${TEST_SERVER_NAME},IP:127.0.0.1\nextendedKeyUsage=serverAuth\n`,
  );
  leaf('client', 'durable-mcp', 'ca', 'extendedKeyUsage=clientAuth\n');
  leaf('intruder', 'intruder', 'other-ca', 'extendedKeyUsage=clientAuth\n');
  newKey('stray.key');
  return {
    dir,
    caCert: file('ca.crt'),
    serverCert: file('server.crt'),
    serverKey: file('server.key'),
    clientCert: file('client.crt'),
    clientKey: file('client.key'),
    intruderCert: file('intruder.crt'),
    intruderKey: file('intruder.key'),
    strayKey: file('stray.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
