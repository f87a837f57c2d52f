/**
 * The service on a Temporal that wants mutual TLS. The CLI's dev server has no TLS, so a
 * TLS-terminating proxy stands in front of the shared one (test/support/tls-proxy.ts): it trusts
 * only client certificates its CA signed and presents a certificate for `temporal.test`, all made
 * here with openssl. The API and the worker connect through it and complete an exchange; a client
 * certificate from another CA fails the start within seconds, with one line that says so.
 */
import { TemporalConnectError } from '../../lib/temporal/connection';
import { accept, rawCall } from '../support/raw-mcp';
import { readStackInfo } from '../support/stack-info';
import { startTestService, TEST_KEY_RINGS, type TestService } from '../support/test-service';
import { hasOpenssl, makeTestPki, TEST_SERVER_NAME, type TestPki } from '../support/test-pki';
import { startTlsProxy, type TlsProxy } from '../support/tls-proxy';
import { apiProcessExit } from '../support/api-process-exit';

const describeWithOpenssl = hasOpenssl() ? describe : describe.skip;

describeWithOpenssl('a Temporal with mutual TLS', () => {
  let pki: TestPki;
  let proxy: TlsProxy;
  const mtls = (cert: string, key: string) => ({
    TEMPORAL_ADDRESS: proxy.address,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert,
    TEMPORAL_TLS_CLIENT_CERT_PATH: cert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: key,
    TEMPORAL_TLS_SERVER_NAME: TEST_SERVER_NAME,
  });

  beforeAll(async () => {
    pki = makeTestPki();
    proxy = await startTlsProxy({
      target: readStackInfo().temporalAddress,
      caCert: pki.caCert,
      serverCert: pki.serverCert,
      serverKey: pki.serverKey,
    });
  });
  afterAll(async () => {
    await proxy?.close();
    pki?.remove();
  });

  describe('with the client certificate its CA signed', () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startTestService(mtls(pki.clientCert, pki.clientKey));
    });
    afterAll(async () => {
      await service?.close();
    });

    it('completes an exchange: the API starts it and the worker runs its rounds, both over mTLS', async () => {
      const first = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
      expect(first.body.result).toMatchObject({ resultType: 'input_required' });
      const answered = await rawCall(service.url, 'tools/call', {
        name: 'greet',
        arguments: {},
        inputResponses: { name: accept({ name: 'Grace' }) },
        requestState: first.body.result!.requestState,
      });
      expect(answered.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Grace!' }]);
    });

    it('is ready: /readyz asks Temporal through the same connection', async () => {
      const response = await fetch(service.url.replace(/\/mcp$/, '/readyz'));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ checks: { temporal: 'ok' } });
    });
  });

  it('fails the start within seconds when the server refuses the client certificate', async () => {
    const started = Date.now();
    const failure = await startTestService(mtls(pki.intruderCert, pki.intruderKey)).then(
      () => new Error('the service started'),
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(TemporalConnectError);
    expect(failure.message).toMatch(
      new RegExp(
        `^Temporal at ${proxy.address} refused the client certificate \\(TEMPORAL_TLS_CLIENT_CERT_PATH=.*intruder.crt, CN=intruder\\)`,
      ),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('fails the start when the server certificate is not for the name it expects', async () => {
    const failure = await startTestService({
      ...mtls(pki.clientCert, pki.clientKey),
      TEMPORAL_TLS_SERVER_NAME: 'other.test',
    }).catch((error: unknown) => error as Error);
    expect((failure as Error).message).toMatch(/not valid for "other.test" \(check TEMPORAL_TLS_SERVER_NAME\)/);
  });

  it('ends the API process with one line naming the cause, not a stack or a hang', async () => {
    const stack = readStackInfo();
    const { code, stderr } = await apiProcessExit({
      ...TEST_KEY_RINGS,
      ...mtls(pki.intruderCert, pki.intruderKey),
      DATABASE_URL: stack.databaseUrl,
    });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^API failed: Temporal at 127\.0\.0\.1:\d+ refused the client certificate/),
    ]);
  });
});
