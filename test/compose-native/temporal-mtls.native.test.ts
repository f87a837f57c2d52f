/**
 * The compose topology with deploy/compose.temporal-mtls.yml over it, natively: the Temporal
 * server asks every client for a certificate its CA signed (frontend and internode TLS from its
 * embedded config template), with the certificates deploy/temporal/tls/make-dev-certs.sh makes, as
 * the operator's guide says. The namespace job, the API and the worker connect with the client
 * certificate and an exchange completes; a plaintext client is refused; the API started with a
 * certificate from another CA ends at once with one line naming the cause.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { projectRoot } from '../../lib/paths';
import { connectModernClient } from '../support/modern-client';
import { makeTestPki, type TestPki } from '../support/test-pki';
import { buildDist, startTestTopology, type TestTopology } from './native-topology';
import { exitOf } from '../support/process-exit';

const ROOT = projectRoot();
let certs: string;
let intruder: TestPki;
let stack: TestTopology;

beforeAll(async () => {
  buildDist();
  certs = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-native-tls-'));
  execFileSync('sh', [path.join(ROOT, 'deploy/temporal/tls/make-dev-certs.sh'), certs], { stdio: 'pipe' });
  intruder = makeTestPki();
  stack = await startTestTopology({
    overrides: ['deploy/compose.temporal-mtls.yml'],
    variables: { TEMPORAL_TLS_DIR: certs },
  });
}, 600_000);

afterAll(async () => {
  await stack?.close();
  intruder?.remove();
  if (certs) rmSync(certs, { recursive: true, force: true });
});

it('completes an exchange: API and worker connect to Temporal with the client certificate', async () => {
  expect(stack.topology.services.api!.environment.TEMPORAL_TLS_CLIENT_CERT_PATH).toBe(path.join(certs, 'client.pem'));
  const client = await connectModernClient(stack.url, () => ({ action: 'accept', content: { name: 'Ada' } }));
  try {
    const result = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
  } finally {
    await client.close();
  }
});

it('refuses a client without TLS, and one without a certificate', async () => {
  const plaintext = await Connection.connect({ address: stack.temporalAddress, connectTimeout: 3_000 }).then(
    async (connection) => {
      await connection.workflowService.getSystemInfo({});
      return 'answered';
    },
    () => 'refused',
  );
  expect(plaintext).toBe('refused');
  const noCertificate = await Connection.connect({
    address: stack.temporalAddress,
    connectTimeout: 3_000,
    tls: { serverNameOverride: 'temporal', serverRootCACertificate: readFileSync(path.join(certs, 'ca.pem')) },
  }).then(
    async (connection) => {
      await connection.workflowService.getSystemInfo({});
      return 'answered';
    },
    () => 'refused',
  );
  expect(noCertificate).toBe('refused');
});

it('ends an API started with a certificate from another CA, with one line naming the cause', async () => {
  const api = stack.topology.services.api!;
  const child = spawn(process.execPath, ['dist/cli/start/api-main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...api.environment,
      TEMPORAL_TLS_CLIENT_CERT_PATH: intruder.intruderCert,
      TEMPORAL_TLS_CLIENT_KEY_PATH: intruder.intruderKey,
      PORT: '0',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const { code, stderr } = await exitOf(child);
  expect(code).toBe(1);
  expect(stderr.trim().split('\n')).toEqual([
    expect.stringMatching(
      new RegExp(
        `^API failed: Temporal at ${stack.temporalAddress.replace(/\./g, '\\.')} refused the client certificate`,
      ),
    ),
  ]);
});
